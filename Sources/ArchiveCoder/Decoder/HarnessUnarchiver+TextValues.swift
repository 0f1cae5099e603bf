import ArchiveFormat
import Foundation

// NSAttributedString and NSPersonNameComponents, read with the keys Foundation writes:
// `NSString`, `NSAttributes` and LEB128 `NSAttributeInfo` runs; `NS.givenName` and the other
// name parts.
extension HarnessUnarchiver {
  /// The classes an attributed string's attribute dictionaries may hold whatever the read
  /// allows, as swift-corelibs-foundation lists them; any other attribute value's class must
  /// be among the read's allowed classes.
  static var attributeStructureClasses: [AnyClass] {
    [NSNumber.self, NSArray.self, NSDictionary.self, NSURL.self, NSString.self]
  }

  func buildAttributedString(_ fields: PropertyListDictionary, mutable: Bool) -> AnyObject? {
    let text = stringObjectField(fields, "NSString") ?? ""
    guard failure == nil else { return nil }
    let result = NSMutableAttributedString(string: text)
    let length = (text as NSString).length
    if length > 0 {
      guard applyAttributes(fields, to: result, length: length) else { return nil }
    }
    return mutable ? result : NSAttributedString(attributedString: result)
  }

  private func applyAttributes(
    _ fields: PropertyListDictionary, to string: NSMutableAttributedString, length: Int
  ) -> Bool {
    var allowedList: AllowedClassList? = nil
    if secure {
      let current =
        callAllowed.last.flatMap { $0 } ?? topLevelAllowed ?? AllowedClassList(types: [])
      allowedList = current.adding(types: Self.attributeStructureClasses)
    }
    let attributes = objectField(
      fields, "NSAttributes", allowedList: allowedList,
      expecting: [NSDictionary.self, NSArray.self])
    let runData = dataObjectField(fields, "NSAttributeInfo")
    guard failure == nil else { return false }
    guard let runData else {
      guard let dictionary = attributes as? NSDictionary else {
        failAt(
          "NSAttributes", .missingField,
          "NSAttributedString has no NSAttributes dictionary and no NSAttributeInfo runs")
        return false
      }
      guard let converted = attributeDictionary(dictionary, key: "NSAttributes") else {
        return false
      }
      string.setAttributes(converted, range: NSRange(location: 0, length: length))
      return true
    }
    guard let array = attributes as? NSArray else {
      failAt(
        "NSAttributes", .typeMismatch, "NSAttributeInfo is present but NSAttributes is not an array"
      )
      return false
    }
    var dictionaries: [[NSAttributedString.Key: Any]] = []
    for (index, element) in (builtElements(of: array) ?? []).enumerated() {
      guard let dictionary = element as? NSDictionary,
        let converted = attributeDictionary(dictionary, key: "NSAttributes")
      else {
        if failure == nil {
          failAt("NSAttributes", .typeMismatch, "element \(index) is not an attribute dictionary")
        }
        return false
      }
      dictionaries.append(converted)
    }
    guard let (values, _) = Self.leb128Integers(runData) else {
      failAt("NSAttributeInfo", .malformed, "the run data ends inside an integer")
      return false
    }
    var location = 0
    var index = 0
    while location < length {
      guard index + 1 < values.count else {
        failAt(
          "NSAttributeInfo", .malformed,
          "the runs cover \(location) of the string's \(length) UTF-16 units")
        return false
      }
      let runLength = values[index]
      let slot = values[index + 1]
      index += 2
      guard slot < dictionaries.count else {
        failAt(
          "NSAttributeInfo", .malformed,
          "a run names attribute dictionary \(slot) of \(dictionaries.count)")
        return false
      }
      guard runLength <= length - location else {
        failAt(
          "NSAttributeInfo", .limitExceeded,
          "a run of \(runLength) at \(location) ends past the string's \(length) UTF-16 units")
        return false
      }
      string.setAttributes(
        dictionaries[slot], range: NSRange(location: location, length: runLength))
      location += runLength
    }
    return true
  }

  private func attributeDictionary(_ dictionary: NSDictionary, key: String)
    -> [NSAttributedString.Key: Any]?
  {
    var converted: [NSAttributedString.Key: Any] = [:]
    for (name, value) in builtEntries(of: dictionary) ?? [] {
      guard let string = name as? NSString else {
        failAt(key, .typeMismatch, "an attribute name is not a string")
        return nil
      }
      converted[NSAttributedString.Key(string as String)] = value
    }
    return converted
  }

  func buildPersonNameComponents(_ fields: PropertyListDictionary) -> AnyObject? {
    let components = NSPersonNameComponents()
    components.namePrefix = stringObjectField(fields, "NS.namePrefix")
    components.givenName = stringObjectField(fields, "NS.givenName")
    components.middleName = stringObjectField(fields, "NS.middleName")
    components.familyName = stringObjectField(fields, "NS.familyName")
    components.nameSuffix = stringObjectField(fields, "NS.nameSuffix")
    components.nickname = stringObjectField(fields, "NS.nickname")
    return failure == nil ? components : nil
  }
}
