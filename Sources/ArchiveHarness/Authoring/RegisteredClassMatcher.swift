import ArchiveFormat
import ArchiveManifest

/// Finds the registered class each archived class name must mean, for writing a class map.
///
/// An archived name matches a registered class when it *is* that class's
/// name; when it is the Swift mangled form of it (`_TtC7NotesV14Note` for
/// `NotesV1.Note`); or when the registered class has the same name in
/// another module (`OldNotes.Note` → `NotesKit.Note`, the Swift module
/// rename). Where several modules hold a class of that name, the module the
/// archive's other classes moved to decides; otherwise the name stays
/// unmapped, with the reason. A renamed class (`Attachment` →
/// `FileAttachment`) is never guessed: it is reported as unmapped.
///
/// ```swift
/// let matcher = RegisteredClassMatcher(
///   registeredClasses: ["NotesKit.Note", "NotesKit.FileAttachment", "NSArray"])
/// let result = matcher.match(["_TtC7NotesV14Note", "NotesV1.Attachment", "NSArray"])
/// result.matches["_TtC7NotesV14Note"]?.registeredName  // "NotesKit.Note"
/// result.unmapped.map(\.archivedName)                 // ["NotesV1.Attachment"]
/// ```
package struct RegisteredClassMatcher: Sendable {
  /// How an archived name was matched to a registered class.
  package enum Rule: String, Sendable, Hashable {
    /// The archived name is the registered name.
    case identity
    /// The archived name is the Swift mangled form of the registered name.
    case mangledName = "mangled-name"
    /// The registered class has the same name in another module.
    case moduleRename = "module-rename"
    /// A mangled name whose class has the same name in another module.
    case mangledModuleRename = "mangled-name, module-rename"
  }

  /// An archived name and the registered class it means.
  package struct Match: Sendable, Hashable {
    /// The class name as the archive has it.
    package var archivedName: String
    /// The registered class's name.
    package var registeredName: String
    /// The rule that matched.
    package var rule: Rule
  }

  /// An archived name that no registered class matches, and why.
  package struct Unmatched: Sendable, Hashable {
    /// The class name as the archive has it.
    package var archivedName: String
    /// Why it is unmapped, in lowercase words.
    package var reason: String
  }

  /// The matches and the names left unmapped.
  package struct Result: Sendable {
    /// Archived name → its match.
    package var matches: [String: Match]
    /// The names no registered class matches, sorted by name.
    package var unmapped: [Unmatched]
    /// The module renames the matches show, archived module → registered module.
    package var moduleRenames: [String: String]
  }

  /// The registered class names: the app's model classes and Foundation's.
  package let registeredClasses: Set<String>
  /// Registered names by the part after their module: `Note` → [`NotesKit.Note`].
  private let namesByUnqualifiedName: [String: [String]]

  /// Creates a matcher over the classes an executable registers.
  ///
  /// - Parameter registeredClasses: Runtime class names, such as `NotesKit.Note` and `NSArray`.
  package init(registeredClasses: Set<String>) {
    self.registeredClasses = registeredClasses
    var byName: [String: [String]] = [:]
    for name in registeredClasses {
      guard let (_, unqualified) = Self.split(name) else { continue }
      byName[unqualified, default: []].append(name)
    }
    self.namesByUnqualifiedName = byName.mapValues { $0.sorted() }
  }

  /// Matches archived class names to registered classes.
  ///
  /// - Parameter archivedNames: Class names as archives carry them.
  /// - Returns: A match for each name that means a registered class, and the rest with reasons.
  package func match(_ archivedNames: Set<String>) -> Result {
    var matches: [String: Match] = [:]
    var ambiguous: [(name: String, module: String?, candidates: [String], mangled: Bool)] = []
    var unmapped: [Unmatched] = []
    for name in archivedNames.sorted() {
      if registeredClasses.contains(name) {
        matches[name] = Match(archivedName: name, registeredName: name, rule: .identity)
        continue
      }
      let demangled = SwiftMangledClassName.demangle(name)
      let readable = demangled ?? name
      if demangled != nil, registeredClasses.contains(readable) {
        matches[name] = Match(archivedName: name, registeredName: readable, rule: .mangledName)
        continue
      }
      let parts = Self.split(readable)
      let module = parts?.module
      let unqualified = parts?.unqualified ?? readable
      let candidates = (namesByUnqualifiedName[unqualified] ?? []).filter {
        Self.split($0)?.module != module
      }
      switch candidates.count {
      case 0:
        unmapped.append(
          Unmatched(
            archivedName: name,
            reason: demangled == nil
              ? "no registered class is named '\(unqualified)' in any module"
              : "'\(name)' is '\(readable)', and no registered class is named '\(unqualified)' "
                + "in any module"))
      case 1:
        matches[name] = Match(
          archivedName: name, registeredName: candidates[0],
          rule: demangled == nil ? .moduleRename : .mangledModuleRename)
      default:
        ambiguous.append((name, module, candidates, demangled != nil))
      }
    }

    // Module renames that the unambiguous matches show decide between same-named classes.
    var targets: [String: Set<String>] = [:]
    for match in matches.values
    where match.rule == .moduleRename || match.rule == .mangledModuleRename {
      let readable = SwiftMangledClassName.demangle(match.archivedName) ?? match.archivedName
      guard let from = Self.split(readable)?.module,
        let to = Self.split(match.registeredName)?.module
      else { continue }
      targets[from, default: []].insert(to)
    }
    for item in ambiguous {
      let moved = item.module.flatMap { targets[$0] }
      let chosen = item.candidates.filter { candidate in
        guard let moved, moved.count == 1, let module = Self.split(candidate)?.module else {
          return false
        }
        return moved.contains(module)
      }
      if chosen.count == 1 {
        matches[item.name] = Match(
          archivedName: item.name, registeredName: chosen[0],
          rule: item.mangled ? .mangledModuleRename : .moduleRename)
      } else {
        let listed = item.candidates.map { "'\($0)'" }.joined(separator: ", ")
        unmapped.append(
          Unmatched(
            archivedName: item.name,
            reason: "several registered classes could be meant (\(listed)); map it by hand"))
      }
    }

    var renames: [String: String] = [:]
    for (from, to) in targets where to.count == 1 {
      renames[from] = to.first
    }
    return Result(
      matches: matches, unmapped: unmapped.sorted { $0.archivedName < $1.archivedName },
      moduleRenames: renames)
  }

  /// Splits `Module.Name` (or `Module.Outer.Inner`) at its first dot.
  private static func split(_ name: String) -> (module: String, unqualified: String)? {
    guard let dot = name.firstIndex(of: ".") else { return nil }
    let module = String(name[..<dot])
    let rest = String(name[name.index(after: dot)...])
    guard !module.isEmpty, !rest.isEmpty else { return nil }
    return (module, rest)
  }
}
