import ArchiveFormat
import Foundation

// NSByteCountFormatter, NSISO8601DateFormatter and NSDateIntervalFormatter, read with the keys
// Foundation writes: `NSUnits`, `NSKBSize`, `NSFormattingContext`, `NSZeroPad`, `NSActual`,
// `NSNoNonnumeric`, `NSNoUnit`, `NSNoCount` and `NSNoAdaptive` (the last four in the reverse
// sense); `NS.formatOptions` and `NS.timeZone`; `NS.dateStyle`, `NS.timeStyle`,
// `NS.dateTemplate`, `NS.dateTemplateFromStyles`, `NS.modified`, `NS.useTemplate`,
// `NS.locale`, `NS.calendar` and `NS.timeZone`.
extension HarnessUnarchiver {
  func buildByteCountFormatter(_ fields: PropertyListDictionary) -> AnyObject? {
    // NSUnits is a 32-bit set of unit bits (0xFFFF is every unit); NSKBSize a count style
    // (file, memory, decimal, binary); NSFormattingContext a Formatter.Context raw value.
    let units = integerField(fields, "NSUnits", in: 0...0xFFFF)
    let countStyle = integerField(fields, "NSKBSize", in: 0...3)
    let context = integerField(fields, "NSFormattingContext", in: 0...5)
    let zeroPads = boolField(fields, "NSZeroPad")
    let actualByteCount = boolField(fields, "NSActual")
    let noNonnumeric = boolField(fields, "NSNoNonnumeric")
    let noUnit = boolField(fields, "NSNoUnit")
    let noCount = boolField(fields, "NSNoCount")
    let notAdaptive = boolField(fields, "NSNoAdaptive")
    guard failure == nil else { return nil }
    let formatter = ByteCountFormatter()
    if let units { formatter.allowedUnits = ByteCountFormatter.Units(rawValue: UInt(units)) }
    if let countStyle, let style = ByteCountFormatter.CountStyle(rawValue: Int(countStyle)) {
      formatter.countStyle = style
    }
    if let context, let value = Formatter.Context(rawValue: Int(context)) {
      formatter.formattingContext = value
    }
    formatter.zeroPadsFractionDigits = zeroPads ?? false
    formatter.includesActualByteCount = actualByteCount ?? false
    formatter.allowsNonnumericFormatting = !(noNonnumeric ?? false)
    formatter.includesUnit = !(noUnit ?? false)
    formatter.includesCount = !(noCount ?? false)
    formatter.isAdaptive = !(notAdaptive ?? false)
    return formatter
  }

  func buildISO8601DateFormatter(_ fields: PropertyListDictionary) -> AnyObject? {
    // The options are a set of ISO8601DateFormatter.Options bits, the highest 1 << 11.
    let options = integerField(fields, "NS.formatOptions", in: 0...0xFFF)
    let timeZone = objectField(fields, "NS.timeZone", allowed: [NSTimeZone.self]) as? NSTimeZone
    guard failure == nil else { return nil }
    if fields["NS.timeZone"] != nil, fields["NS.timeZone"] != .uid(0), timeZone == nil {
      failAt("NS.timeZone", .malformed, "NSISO8601DateFormatter's NS.timeZone is not a time zone")
      return nil
    }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = ISO8601DateFormatter.Options(rawValue: UInt(options ?? 0))
    if let timeZone { formatter.timeZone = timeZone as TimeZone }
    return formatter
  }

  func buildDateIntervalFormatter(_ fields: PropertyListDictionary) -> AnyObject? {
    // The styles are DateIntervalFormatter.Style raw values: none, short, medium, long, full.
    let dateStyle = integerField(fields, "NS.dateStyle", in: 0...4)
    let timeStyle = integerField(fields, "NS.timeStyle", in: 0...4)
    let template = stringObjectField(fields, "NS.dateTemplate")
    // The template the styles give, and whether the template or the styles were set last, are
    // derived state: they are checked, and the formatter derives them again from what is set.
    _ = stringObjectField(fields, "NS.dateTemplateFromStyles")
    _ = boolField(fields, "NS.modified")
    let useTemplate = boolField(fields, "NS.useTemplate")
    let locale = objectField(fields, "NS.locale", allowed: [NSLocale.self]) as? NSLocale
    let calendar = objectField(fields, "NS.calendar", allowed: [NSCalendar.self]) as? NSCalendar
    let timeZone = objectField(fields, "NS.timeZone", allowed: [NSTimeZone.self]) as? NSTimeZone
    guard failure == nil else { return nil }
    if let template, template.utf8.count > Self.maximumDateTemplateBytes {
      failAt(
        "NS.dateTemplate", .limitExceeded,
        "a date template of \(template.utf8.count) bytes (at most "
          + "\(Self.maximumDateTemplateBytes))")
      return nil
    }
    let formatter = DateIntervalFormatter()
    if let locale { formatter.locale = locale as Locale }
    if let calendar { formatter.calendar = calendar as Calendar }
    if let timeZone { formatter.timeZone = timeZone as TimeZone }
    if let dateStyle, let style = DateIntervalFormatter.Style(rawValue: UInt(dateStyle)) {
      formatter.dateStyle = style
    }
    if let timeStyle, let style = DateIntervalFormatter.Style(rawValue: UInt(timeStyle)) {
      formatter.timeStyle = style
    }
    if let template, useTemplate ?? !template.isEmpty { formatter.dateTemplate = template }
    return formatter
  }

  /// The longest date template read; real templates are a few dozen bytes.
  static let maximumDateTemplateBytes = 1024
}
