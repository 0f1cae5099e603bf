import ArchiveCoder
import ArchiveFormat
import ArchiveManifest
import Foundation

extension Verifier {
  /// The most rows lost and not pinned that a case names one by one; the rest are counted.
  static let maximumUnpinnedRowFindings = 20

  /// Checks a manifest's `<coreDataAttribute>` pin: reads the model and the store's rows as
  /// `coredata preflight` does (``TransformerPreflight``) and compares them with the pin.
  ///
  /// Errors: the model declares another transformer or `customClassName` than the pin, a row
  /// is lost that the pin does not list (or for another class), the row count differs, the
  /// store or model cannot be read, or the attribute is not a transformable of the model.
  /// Warning: a pinned lost row that now decodes.
  ///
  /// ```swift
  /// let item = verifier.verifyCoreDataAttribute(
  ///   pin, of: manifest, archivesDirectory: "LegacyArchives")
  /// for finding in item.storeFindings { print(finding.place, finding.message) }
  /// ```
  ///
  /// - Parameters:
  ///   - pin: The pinned attribute.
  ///   - manifest: The manifest that pins it.
  ///   - archivesDirectory: The folder its store and model paths are relative to.
  /// - Returns: The case, with no decode paths.
  package func verifyCoreDataAttribute(
    _ pin: CoreDataAttributePin, of manifest: Manifest, archivesDirectory: String
  ) -> VerificationCase {
    var item = VerificationCase(
      manifest: manifest.file, archive: StoreCheck.coreDataAttribute(pin).path,
      location: pin.location, paths: [], expectations: [], producer: Self.producer(of: manifest))
    item.storeFindings = coreDataAttributeFindings(
      pin, classMap: Self.classMap(of: manifest), archivesDirectory: archivesDirectory)
    return item
  }

  private func coreDataAttributeFindings(
    _ pin: CoreDataAttributePin, classMap: ClassNameMap, archivesDirectory: String
  ) -> [StoreFinding] {
    func finding(_ severity: Severity, _ place: Place, _ message: String) -> StoreFinding {
      StoreFinding(.coreDataAttribute, severity, at: place, message)
    }
    let modelPath = (archivesDirectory as NSString).appendingPathComponent(pin.model)
    let model: CoreDataModel
    do throws(CoreDataModelError) {
      model = try CoreDataModelReader.read(path: modelPath)
    } catch {
      return [
        finding(
          .error, pin.location(ofAttribute: "model"),
          "the model '\(pin.model)' cannot be read: \(error.description)")
      ]
    }
    guard
      let declared = model.transformables.first(where: {
        $0.entity == pin.entity && $0.name == pin.attribute
      })
    else {
      let known = model.transformables.map { "\($0.entity).\($0.name)" }
      let names = known.isEmpty ? "(none)" : known.joined(separator: ", ")
      let hasEntity = model.entities.contains { $0.name == pin.entity }
      let what =
        hasEntity
        ? "has no transformable attribute '\(pin.attribute)' in entity '\(pin.entity)'"
        : "has no entity '\(pin.entity)'"
      return [
        finding(
          .error, pin.location(ofAttribute: hasEntity ? "attribute" : "entity"),
          "the model '\(pin.model)' (\(model.file)) \(what); its transformable attributes are: "
            + names)
      ]
    }
    let attribute = TransformerPreflight.Attribute(
      entity: declared.entity, attribute: declared.name,
      declaredTransformer: declared.valueTransformerName,
      customClassName: declared.customClassName, modelPlace: declared.place.description,
      allowedClasses: pin.allowedClasses?.map(\.name), isTransient: declared.isTransient)
    var findings: [StoreFinding] = []
    let pinned = TransformerPreflight.Attribute(
      entity: pin.entity, attribute: pin.attribute, declaredTransformer: pin.transformer,
      customClassName: pin.customClassName, modelPlace: "")
    if pinned.transformer != attribute.transformer {
      findings.append(
        finding(
          .error, pin.location(ofAttribute: "transformer"),
          "the model declares \(pin.qualifiedName)'s valueTransformerName "
            + "\(declared.valueTransformerName.map { "'\($0)'" } ?? "none (the deprecated default)") "
            + "at \(declared.place), but the pin says '\(pin.transformer)': the model changed; "
            + "check its rows with `coredata preflight`, then pin transformer=\""
            + "\(declared.valueTransformerName ?? "NSKeyedUnarchiveFromData")\""))
    }
    if let expected = pin.customClassName, expected != declared.customClassName {
      findings.append(
        finding(
          .error, pin.location(ofAttribute: "customClassName"),
          "the model declares \(pin.qualifiedName)'s customClassName "
            + "\(declared.customClassName.map { "'\($0)'" } ?? "none") at \(declared.place), "
            + "but the pin says '\(expected)': the model changed"))
    }
    var isCustom = false
    if case .custom = attribute.transformer { isCustom = true }
    if !isCustom, let first = pin.allowedClasses?.first {
      findings.append(
        finding(
          .error, first.location,
          "allowedClass applies to a custom transformer only; \(pin.qualifiedName)'s "
            + "transformer reads with \(TransformerPreflight.basis(of: attribute).1.joined(separator: ", "))"
        ))
    }
    if attribute.isTransient {
      findings.append(
        finding(
          .error, pin.location,
          "\(pin.qualifiedName) is transient: Core Data keeps no column for it"
        ))
      return findings
    }
    let storePath = (archivesDirectory as NSString).appendingPathComponent(pin.store)
    let preflight = TransformerPreflight(
      storePath: storePath,
      runner: TransformerPreflight.runner(registry: registry, worker: runner),
      classMap: classMap)
    let report: TransformerPreflight.AttributeReport
    do throws(MigrationError) {
      guard let first = try preflight.run([attribute], model: model.file).attributes.first else {
        return findings
      }
      report = first
    } catch {
      findings.append(
        finding(
          .error, pin.location(ofAttribute: "store"),
          "the store '\(pin.store)' cannot be checked: \(error.description)"))
      return findings
    }
    if report.rows != pin.rows {
      findings.append(
        finding(
          .error, pin.location(ofAttribute: "rows"),
          "\(report.table).\(report.column) has \(report.rows) rows for \(pin.qualifiedName), "
            + "but the pin says \(pin.rows)"))
    }
    findings += lostRowFindings(pin, report: report)
    return findings
  }

  /// The lost rows the pin does not list (errors), lists for another class (errors), or lists
  /// but that now decode (warnings).
  private func lostRowFindings(
    _ pin: CoreDataAttributePin, report: TransformerPreflight.AttributeReport
  ) -> [StoreFinding] {
    var findings: [StoreFinding] = []
    let pinned = Dictionary(pin.lostRows.map { ($0.primaryKey, $0) }) { first, _ in first }
    let lost = Dictionary(report.lostRows.map { ($0.primaryKey, $0) }) { first, _ in first }
    let transformer = report.attribute.declaredTransformer ?? "NSKeyedUnarchiveFromData"
    let list = report.minimalAllowedClasses.joined(separator: ", ")
    var unpinned = 0
    for row in report.lostRows {
      let name = "\(row.entity)[Z_PK=\(row.primaryKey)].\(pin.attribute)"
      if let expected = pinned[row.primaryKey] {
        if let className = expected.className, className != row.className {
          findings.append(
            StoreFinding(
              .coreDataAttribute, .error, at: expected.location,
              "\(name) is lost for \(row.className.map { "class '\($0)'" } ?? "another reason"), "
                + "not for class '\(className)' as pinned: \(row.message)"))
        }
        continue
      }
      unpinned += 1
      guard unpinned <= Self.maximumUnpinnedRowFindings else { continue }
      let element =
        "<lostRow pk=\"\(row.primaryKey)\"\(row.className.map { " class=\"\($0)\"" } ?? "")/>"
      findings.append(
        StoreFinding(
          .coreDataAttribute, .error, at: pin.location,
          "\(name) would become nil under \(transformer) [\(row.kind.rawValue)]: \(row.message); "
            + "allow its classes (the smallest allowedTopLevelClasses that decodes every row: "
            + "\(list)), or accept the loss with \(element)"))
    }
    let notListed = report.lostRowCount - report.lostRows.count
    if unpinned > Self.maximumUnpinnedRowFindings || notListed > 0 {
      findings.append(
        StoreFinding(
          .coreDataAttribute, .error, at: pin.location,
          "\(max(0, unpinned - Self.maximumUnpinnedRowFindings) + notListed) more rows of "
            + "\(pin.qualifiedName) would become nil that the pin does not list; "
            + "`coredata preflight` lists them"))
    }
    // A preflight that stopped listing rows cannot say which pinned rows now decode.
    guard notListed == 0 else { return findings }
    for row in pin.lostRows where lost[row.primaryKey] == nil {
      findings.append(
        StoreFinding(
          .coreDataAttribute, .warning, at: row.location,
          "\(pin.entity)[Z_PK=\(row.primaryKey)].\(pin.attribute) is pinned as lost but now "
            + "decodes under \(transformer): remove its lostRow"))
    }
    return findings
  }
}
