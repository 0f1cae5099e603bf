import ArchiveFormat
import ArchiveManifest
import Foundation

extension ManifestAuthor {
  /// The class names authoring writes: map rows, the names it could not map, and the current
  /// name each archived name has in `allowedClasses` and `rootClass`.
  struct ClassPlan {
    /// Map rows to write, archived name → current name, sorted by archived name.
    var mappings: [(from: String, to: String)] = []
    /// The archived names no registered class matches.
    var unmapped: [RegisteredClassMatcher.Unmatched] = []
    /// Archived name → the current name; a name without one is left out of the manifest.
    var current: [String: String] = [:]

    /// Whether there is nothing to write into a class map.
    var isEmpty: Bool { mappings.isEmpty && unmapped.isEmpty }

    /// The current name of an archived root class, if it has one.
    func root(_ archivedName: String) -> String? { current[archivedName] }

    /// The `map` rows, then one comment for each name left unmapped.
    func rows(indent: String, prefix: String) -> String {
      var text = ""
      for (from, to) in mappings
      where ManifestXMLWriter.isClassName(from) && ManifestXMLWriter.isClassName(to) {
        text +=
          "\(indent)<\(prefix)map from=\"\(XMLText.escaped(from))\" "
          + "to=\"\(XMLText.escaped(to))\"/>\n"
      }
      for name in unmapped where ManifestXMLWriter.isClassName(name.archivedName) {
        let comment =
          "unmapped '\(name.archivedName)': \(name.reason). Map it with "
          + "<map from=\"\(name.archivedName)\" to=\"…\"/>"
        text += "\(indent)<!-- \(comment.replacingOccurrences(of: "--", with: "- -")) -->\n"
      }
      return text
    }
  }

  /// The current name the team's map (`Options.classMap`, `Options.moduleRenames`) gives an
  /// archived class name, if any.
  func teamMapping(of name: String) -> String? {
    if let target = options.classMap[name] { return target }
    guard let dot = name.firstIndex(of: "."),
      let module = options.moduleRenames[String(name[..<dot])]
    else { return nil }
    return module + name[dot...]
  }

  /// Decides the class map rows and current names for the class names of newly surveyed archives.
  ///
  /// - Parameters:
  ///   - names: Every class name the archives contain, superclass chains included.
  ///   - reachable: The class names of instances reachable from the archives' roots.
  ///   - existing: The mappings a manifest being updated already has, archived → current.
  ///   - surveyed: The archives, to name where an unmapped class occurs.
  ///   - place: Where the names come from, when no surveyed archive holds one.
  ///   - diagnostics: Receives one diagnostic per name that could not be mapped.
  /// - Returns: The rows to write and the current name of every archived name that has one.
  func classPlan(
    _ names: Set<String>, reachable: Set<String>, existing: [String: String],
    surveyed: [Surveyed], place: String = "<archives>", diagnostics: inout [ManifestDiagnostic]
  ) -> ClassPlan {
    var plan = ClassPlan()
    var names = names.subtracting([KeyedArchive.oldStyleArrayClassName])
    // The team's own map first: a rename matching by name cannot find.
    for name in names.sorted() {
      guard existing[name] == nil, let target = teamMapping(of: name) else { continue }
      plan.current[name] = target
      plan.mappings.append((name, target))
      names.remove(name)
    }
    guard let registeredClasses else {
      for name in names {
        if let target = existing[name] {
          plan.current[name] = target
        } else {
          plan.current[name] = name
          plan.mappings.append((name, name))
        }
      }
      plan.mappings.sort { $0.from < $1.from }
      return plan
    }

    let registered = registeredClasses.union(ManifestLoader.foundationClassNames)
    var fresh: Set<String> = []
    for name in names {
      guard let target = existing[name] else {
        fresh.insert(name)
        continue
      }
      if registered.contains(target) {
        plan.current[name] = target
      } else {
        plan.unmapped.append(
          RegisteredClassMatcher.Unmatched(
            archivedName: name,
            reason: "the manifest maps it to '\(target)', which is not a registered class"))
      }
    }
    let matched = RegisteredClassMatcher(registeredClasses: registered).match(fresh)
    for match in matched.matches.values.sorted(by: { $0.archivedName < $1.archivedName }) {
      plan.current[match.archivedName] = match.registeredName
      if match.rule != .identity {
        plan.mappings.append((match.archivedName, match.registeredName))
      }
    }
    plan.unmapped += matched.unmapped
    plan.unmapped.sort { $0.archivedName < $1.archivedName }

    for name in plan.unmapped {
      let archive =
        surveyed.first { $0.survey.classNames.contains(name.archivedName) }?.input.path
        ?? place
      let location = Place(file: archive, line: 0, column: 0)
      if reachable.contains(name.archivedName) {
        diagnostics.append(
          ManifestDiagnostic(
            .warning, .semantic, at: location,
            "class '\(name.archivedName)' maps to no registered class (\(name.reason)); it is "
              + "left out of allowedClasses and rootClass"))
      } else {
        diagnostics.append(
          ManifestDiagnostic(
            .note, .semantic, at: location,
            "class '\(name.archivedName)', only in a superclass chain, maps to no registered "
              + "class (\(name.reason))"))
      }
    }
    return plan
  }
}
