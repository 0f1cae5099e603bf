import ArchiveFormat
import Foundation

// NSMeasurement, NSUnit and its dimensions, and NSUnitConverterLinear, read with the keys
// Foundation writes: `NS.value` and `NS.unit`; `NS.symbol`; `NS.converter`; `NS.coefficient`
// and `NS.constant`. Apple also writes `NS.specifier`, which names the unit and is not read.
extension HarnessUnarchiver {
  func buildMeasurement(_ fields: PropertyListDictionary) -> AnyObject? {
    let value = doubleField(fields, "NS.value") ?? 0
    guard failure == nil else { return nil }
    guard fields["NS.unit"] != nil else {
      failAt("NS.unit", .missingField, "NSMeasurement has no NS.unit")
      return nil
    }
    guard let unit = objectField(fields, "NS.unit", allowed: [Unit.self]) as? Unit else {
      if failure == nil { failAt("NS.unit", .missingField, "NS.unit is $null") }
      return nil
    }
    return NSMeasurement(doubleValue: value, unit: unit)
  }

  func buildUnit(_ kind: FoundationValueKind, _ fields: PropertyListDictionary) -> AnyObject? {
    guard let symbol = requiredStringObjectField(fields, "NS.symbol", of: kind.className) else {
      return nil
    }
    guard let dimensionType = kind.dimensionType else { return Unit(symbol: symbol) }
    guard fields["NS.converter"] != nil else {
      failAt("NS.converter", .missingField, "\(kind.className) has no NS.converter")
      return nil
    }
    guard
      let converter = objectField(fields, "NS.converter", allowed: [UnitConverter.self])
        as? UnitConverter
    else {
      if failure == nil { failAt("NS.converter", .missingField, "NS.converter is $null") }
      return nil
    }
    return dimensionType.init(symbol: symbol, converter: converter)
  }

  func buildLinearConverter(_ fields: PropertyListDictionary) -> AnyObject? {
    let coefficient = doubleField(fields, "NS.coefficient") ?? 0
    let constant = doubleField(fields, "NS.constant") ?? 0
    guard failure == nil else { return nil }
    return UnitConverterLinear(coefficient: coefficient, constant: constant)
  }
}
