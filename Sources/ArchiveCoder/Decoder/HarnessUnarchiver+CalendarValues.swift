import ArchiveFormat
import Foundation

// NSLocale, NSTimeZone, NSCalendar and NSDateComponents, read with the keys Foundation writes:
// `NS.identifier`; `NS.name` and `NS.data`; `NS.identifier`, `NS.timezone`, `NS.locale`,
// `NS.firstwkdy`, `NS.mindays` and `NS.gstartdate`; `NS.era` to `NS.weekdayOrdinal`,
// `NS.isLeapMonth`, `NS.calendar` and `NS.timezone`.
extension HarnessUnarchiver {
  func buildLocale(_ fields: PropertyListDictionary) -> AnyObject? {
    guard let identifier = requiredStringObjectField(fields, "NS.identifier", of: "NSLocale")
    else { return nil }
    guard identifier.utf8.count <= 256 else {
      failAt(
        "NS.identifier", .limitExceeded, "a locale identifier of \(identifier.utf8.count) bytes")
      return nil
    }
    return NSLocale(localeIdentifier: identifier)
  }

  func buildTimeZone(_ fields: PropertyListDictionary) -> AnyObject? {
    guard let name = requiredStringObjectField(fields, "NS.name", of: "NSTimeZone") else {
      return nil
    }
    let data = dataObjectField(fields, "NS.data")
    guard failure == nil else { return nil }
    if let zone = NSTimeZone(name: name) { return zone }
    if let data, let zone = NSTimeZone(name: name, data: Data(data)) { return zone }
    failAt("NS.name", .malformed, "there is no time zone named '\(name.prefix(80))'")
    return nil
  }

  func buildCalendar(_ fields: PropertyListDictionary) -> AnyObject? {
    guard let identifier = requiredStringObjectField(fields, "NS.identifier", of: "NSCalendar")
    else { return nil }
    guard let calendar = NSCalendar(identifier: NSCalendar.Identifier(rawValue: identifier)) else {
      failAt("NS.identifier", .malformed, "'\(identifier.prefix(80))' is not a calendar identifier")
      return nil
    }
    let timeZone = objectField(fields, "NS.timezone", allowed: [NSTimeZone.self]) as? NSTimeZone
    let locale = objectField(fields, "NS.locale", allowed: [NSLocale.self]) as? NSLocale
    let firstWeekday = integerField(fields, "NS.firstwkdy", in: 1...7)
    let minimumDays = integerField(fields, "NS.mindays", in: 1...7)
    _ = objectField(fields, "NS.gstartdate", allowed: [NSDate.self])
    guard failure == nil else { return nil }
    if let timeZone { calendar.timeZone = timeZone as TimeZone }
    if let locale { calendar.locale = locale as Locale }
    if let firstWeekday { calendar.firstWeekday = Int(firstWeekday) }
    if let minimumDays { calendar.minimumDaysInFirstWeek = Int(minimumDays) }
    return calendar
  }

  /// The integer components of NSDateComponents, by archived key.
  private static var dateComponentKeys: [(key: String, set: (NSDateComponents, Int) -> Void)] {
    [
      ("NS.era", { $0.era = $1 }), ("NS.year", { $0.year = $1 }),
      ("NS.quarter", { $0.quarter = $1 }), ("NS.month", { $0.month = $1 }),
      ("NS.day", { $0.day = $1 }), ("NS.hour", { $0.hour = $1 }),
      ("NS.minute", { $0.minute = $1 }), ("NS.second", { $0.second = $1 }),
      ("NS.nanosec", { $0.nanosecond = $1 }), ("NS.weekOfYear", { $0.weekOfYear = $1 }),
      ("NS.weekOfMonth", { $0.weekOfMonth = $1 }), ("NS.yearForWOY", { $0.yearForWeekOfYear = $1 }),
      ("NS.weekday", { $0.weekday = $1 }), ("NS.weekdayOrdinal", { $0.weekdayOrdinal = $1 }),
    ]
  }

  func buildDateComponents(_ fields: PropertyListDictionary) -> AnyObject? {
    let components = NSDateComponents()
    for (key, set) in Self.dateComponentKeys {
      if let value = integerField(fields, key, in: Int64(Int.min)...Int64(Int.max)) {
        set(components, Int(value))
      }
    }
    let leapMonth = boolField(fields, "NS.isLeapMonth")
    let calendar = objectField(fields, "NS.calendar", allowed: [NSCalendar.self]) as? NSCalendar
    let timeZone = objectField(fields, "NS.timezone", allowed: [NSTimeZone.self]) as? NSTimeZone
    guard failure == nil else { return nil }
    if let leapMonth { components.isLeapMonth = leapMonth }
    if let calendar { components.calendar = calendar as Calendar }
    if let timeZone { components.timeZone = timeZone as TimeZone }
    return components
  }
}
