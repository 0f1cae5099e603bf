import Foundation

/// A Foundation value class the harness coder builds itself from its archived form.
///
/// Each is read with the key names Apple's Foundation writes on iOS and macOS, checked field by
/// field, and built through public initializers; no class's `init(coder:)` runs.
package enum FoundationValueKind: String, Sendable, CaseIterable, Hashable {
  /// `NSString`.
  case string = "NSString"
  /// `NSMutableString`.
  case mutableString = "NSMutableString"
  /// `NSNumber`.
  case number = "NSNumber"
  /// `NSArray`.
  case array = "NSArray"
  /// `NSMutableArray`.
  case mutableArray = "NSMutableArray"
  /// `NSDictionary`.
  case dictionary = "NSDictionary"
  /// `NSMutableDictionary`.
  case mutableDictionary = "NSMutableDictionary"
  /// `NSSet`.
  case set = "NSSet"
  /// `NSMutableSet`.
  case mutableSet = "NSMutableSet"
  /// `NSOrderedSet`.
  case orderedSet = "NSOrderedSet"
  /// `NSMutableOrderedSet`.
  case mutableOrderedSet = "NSMutableOrderedSet"
  /// `NSDate`.
  case date = "NSDate"
  /// `NSData`.
  case data = "NSData"
  /// `NSMutableData`.
  case mutableData = "NSMutableData"
  /// `NSUUID`.
  case uuid = "NSUUID"
  /// `NSURL`.
  case url = "NSURL"
  /// `NSNull`.
  case null = "NSNull"
  /// `NSObject`, the root of every class chain.
  case object = "NSObject"
  /// `NSValue`.
  case value = "NSValue"
  /// `NSIndexSet`.
  case indexSet = "NSIndexSet"
  /// `NSMutableIndexSet`.
  case mutableIndexSet = "NSMutableIndexSet"
  /// `NSIndexPath`.
  case indexPath = "NSIndexPath"
  /// `NSCountedSet`.
  case countedSet = "NSCountedSet"
  /// `NSAttributedString`.
  case attributedString = "NSAttributedString"
  /// `NSMutableAttributedString`.
  case mutableAttributedString = "NSMutableAttributedString"
  /// `NSDecimalNumber`.
  case decimalNumber = "NSDecimalNumber"
  /// `NSLocale`.
  case locale = "NSLocale"
  /// `NSTimeZone`.
  case timeZone = "NSTimeZone"
  /// `NSCalendar`.
  case calendar = "NSCalendar"
  /// `NSError`: a domain, a code and a user-info dictionary.
  case error = "NSError"
  /// `NSDateComponents`.
  case dateComponents = "NSDateComponents"
  /// `NSPersonNameComponents`.
  case personNameComponents = "NSPersonNameComponents"
  /// `NSMeasurement`.
  case measurement = "NSMeasurement"
  /// `NSUnit`.
  case unit = "NSUnit"
  /// `NSDimension`.
  case dimension = "NSDimension"
  /// `NSUnitConverterLinear`.
  case unitConverterLinear = "NSUnitConverterLinear"
  /// `NSUnitAcceleration`.
  case unitAcceleration = "NSUnitAcceleration"
  /// `NSUnitAngle`.
  case unitAngle = "NSUnitAngle"
  /// `NSUnitArea`.
  case unitArea = "NSUnitArea"
  /// `NSUnitConcentrationMass`.
  case unitConcentrationMass = "NSUnitConcentrationMass"
  /// `NSUnitDispersion`.
  case unitDispersion = "NSUnitDispersion"
  /// `NSUnitDuration`.
  case unitDuration = "NSUnitDuration"
  /// `NSUnitElectricCharge`.
  case unitElectricCharge = "NSUnitElectricCharge"
  /// `NSUnitElectricCurrent`.
  case unitElectricCurrent = "NSUnitElectricCurrent"
  /// `NSUnitElectricPotentialDifference`.
  case unitElectricPotentialDifference = "NSUnitElectricPotentialDifference"
  /// `NSUnitElectricResistance`.
  case unitElectricResistance = "NSUnitElectricResistance"
  /// `NSUnitEnergy`.
  case unitEnergy = "NSUnitEnergy"
  /// `NSUnitFrequency`.
  case unitFrequency = "NSUnitFrequency"
  /// `NSUnitFuelEfficiency`.
  case unitFuelEfficiency = "NSUnitFuelEfficiency"
  /// `NSUnitIlluminance`.
  case unitIlluminance = "NSUnitIlluminance"
  /// `NSUnitLength`.
  case unitLength = "NSUnitLength"
  /// `NSUnitMass`.
  case unitMass = "NSUnitMass"
  /// `NSUnitPower`.
  case unitPower = "NSUnitPower"
  /// `NSUnitPressure`.
  case unitPressure = "NSUnitPressure"
  /// `NSUnitSpeed`.
  case unitSpeed = "NSUnitSpeed"
  /// `NSUnitTemperature`.
  case unitTemperature = "NSUnitTemperature"
  /// `NSUnitVolume`.
  case unitVolume = "NSUnitVolume"
  /// `NSNotification`: a name, an object and a user-info dictionary; `NSCoding` only.
  case notification = "NSNotification"
  /// `NSAffineTransform`: six 32-bit floats in `NSTransformStruct`.
  case affineTransform = "NSAffineTransform"
  /// `NSByteCountFormatter`; `NSCoding` only.
  case byteCountFormatter = "NSByteCountFormatter"
  /// `NSDateIntervalFormatter`; `NSCoding` only.
  case dateIntervalFormatter = "NSDateIntervalFormatter"
  /// `NSISO8601DateFormatter`.
  case iso8601DateFormatter = "NSISO8601DateFormatter"
  /// `NSRegularExpression`.
  case regularExpression = "NSRegularExpression"
  /// The regular-expression match with one to three ranges.
  case simpleRegularExpressionCheckingResult = "NSSimpleRegularExpressionCheckingResult"
  /// The regular-expression match with four to seven ranges.
  case extendedRegularExpressionCheckingResult = "NSExtendedRegularExpressionCheckingResult"
  /// The regular-expression match with any other number of ranges.
  case complexRegularExpressionCheckingResult = "NSComplexRegularExpressionCheckingResult"

  /// The class's plain name, as archives and `NSStringFromClass` spell it.
  package var className: String { rawValue }

  /// Whether the class holds other objects whose classes secure coding checks.
  package var isContainer: Bool {
    switch self {
    case .array, .mutableArray, .dictionary, .mutableDictionary, .set, .mutableSet,
      .orderedSet, .mutableOrderedSet, .countedSet:
      return true
    default:
      return false
    }
  }

  /// The `NSDimension` subclass this is, or `nil` for any other class.
  var dimensionType: Dimension.Type? {
    switch self {
    case .dimension: Dimension.self
    case .unitAcceleration: UnitAcceleration.self
    case .unitAngle: UnitAngle.self
    case .unitArea: UnitArea.self
    case .unitConcentrationMass: UnitConcentrationMass.self
    case .unitDispersion: UnitDispersion.self
    case .unitDuration: UnitDuration.self
    case .unitElectricCharge: UnitElectricCharge.self
    case .unitElectricCurrent: UnitElectricCurrent.self
    case .unitElectricPotentialDifference: UnitElectricPotentialDifference.self
    case .unitElectricResistance: UnitElectricResistance.self
    case .unitEnergy: UnitEnergy.self
    case .unitFrequency: UnitFrequency.self
    case .unitFuelEfficiency: UnitFuelEfficiency.self
    case .unitIlluminance: UnitIlluminance.self
    case .unitLength: UnitLength.self
    case .unitMass: UnitMass.self
    case .unitPower: UnitPower.self
    case .unitPressure: UnitPressure.self
    case .unitSpeed: UnitSpeed.self
    case .unitTemperature: UnitTemperature.self
    case .unitVolume: UnitVolume.self
    default: nil
    }
  }

  /// Whether the class is a mutable variant.
  package var isMutable: Bool {
    switch self {
    case .mutableString, .mutableArray, .mutableDictionary, .mutableSet, .mutableOrderedSet,
      .mutableData, .mutableIndexSet, .mutableAttributedString:
      return true
    default:
      return false
    }
  }

  /// The Foundation class itself.
  package var type: NSObject.Type {
    switch self {
    case .string: return NSString.self
    case .mutableString: return NSMutableString.self
    case .number: return NSNumber.self
    case .array: return NSArray.self
    case .mutableArray: return NSMutableArray.self
    case .dictionary: return NSDictionary.self
    case .mutableDictionary: return NSMutableDictionary.self
    case .set: return NSSet.self
    case .mutableSet: return NSMutableSet.self
    case .orderedSet: return NSOrderedSet.self
    case .mutableOrderedSet: return NSMutableOrderedSet.self
    case .date: return NSDate.self
    case .data: return NSData.self
    case .mutableData: return NSMutableData.self
    case .uuid: return NSUUID.self
    case .url: return NSURL.self
    case .null: return NSNull.self
    case .object: return NSObject.self
    case .value: return NSValue.self
    case .indexSet: return NSIndexSet.self
    case .mutableIndexSet: return NSMutableIndexSet.self
    case .indexPath: return NSIndexPath.self
    case .countedSet: return NSCountedSet.self
    case .attributedString: return NSAttributedString.self
    case .mutableAttributedString: return NSMutableAttributedString.self
    case .decimalNumber: return NSDecimalNumber.self
    case .locale: return NSLocale.self
    case .timeZone: return NSTimeZone.self
    case .calendar: return NSCalendar.self
    case .error: return NSError.self
    case .dateComponents: return NSDateComponents.self
    case .personNameComponents: return NSPersonNameComponents.self
    case .measurement: return NSMeasurement.self
    case .unit: return Unit.self
    case .unitConverterLinear: return UnitConverterLinear.self
    case .notification: return NSNotification.self
    case .affineTransform:
      #if os(macOS) || !canImport(Darwin)
        return NSAffineTransform.self
      #else
        return MacOSOnlyFoundationClass.self
      #endif
    case .byteCountFormatter: return ByteCountFormatter.self
    case .dateIntervalFormatter: return DateIntervalFormatter.self
    case .iso8601DateFormatter: return ISO8601DateFormatter.self
    case .regularExpression: return NSRegularExpression.self
    case .simpleRegularExpressionCheckingResult:
      return Self.checkingResultClasses.simple
    case .extendedRegularExpressionCheckingResult:
      return Self.checkingResultClasses.extended
    case .complexRegularExpressionCheckingResult:
      return Self.checkingResultClasses.complex
    default: return dimensionType ?? NSObject.self
    }
  }
}

extension FoundationValueKind {
  /// The range counts at which Foundation picks each regular-expression result class: one to
  /// three ranges are a simple result, four to seven an extended one, more a complex one.
  static func checkingResultKind(rangeCount: Int) -> FoundationValueKind {
    switch rangeCount {
    case 1...3: .simpleRegularExpressionCheckingResult
    case 4...7: .extendedRegularExpressionCheckingResult
    default: .complexRegularExpressionCheckingResult
    }
  }

  /// The private `NSTextCheckingResult` subclasses, as Foundation's public factory returns them;
  /// `NSTextCheckingResult` itself is never registered, as its `supportsSecureCoding` traps in
  /// swift-corelibs-foundation.
  private static let checkingResultClasses:
    (simple: NSObject.Type, extended: NSObject.Type, complex: NSObject.Type) = {
      var ranges = Array(repeating: NSRange(location: 0, length: 0), count: 8)
      let expression = try? NSRegularExpression(pattern: "a")
      func resultClass(_ count: Int) -> NSObject.Type {
        ranges.withUnsafeMutableBufferPointer { buffer -> NSObject.Type in
          guard let base = buffer.baseAddress, let expression else { return NSObject.self }
          let result = NSTextCheckingResult.regularExpressionCheckingResult(
            ranges: base, count: count, regularExpression: expression)
          return Swift.type(of: result)
        }
      }
      return (resultClass(1), resultClass(4), resultClass(8))
    }()
}

#if canImport(Darwin) && !os(macOS)
  /// The class a registry holds for a macOS-only Foundation class (NSAffineTransform) where
  /// Foundation lacks it; the harness refuses such objects with a reason and never makes one.
  final class MacOSOnlyFoundationClass: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {}
  }
#endif
