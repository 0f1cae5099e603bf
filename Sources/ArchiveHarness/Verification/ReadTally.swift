import ArchiveFormat

/// What the passed cases of a verification read as: decoded, or rejected as their manifests
/// expect, by category, and the manifests of which nothing decoded.
///
/// A run where every entry "passed" because every archive was rejected as expected proves
/// nothing is read; the summary says how many of the passed cases decoded, and names each
/// manifest with no decoded entry.
///
/// ```swift
/// var tally = ReadTally()
/// for item in report.cases { tally.add(item) }
/// print(tally.summary)  // 10 decoded, 14 rejected as expected (5 truncated, 9 wrong-root-class)
/// ```
package struct ReadTally: Sendable, Hashable {
  /// Passed cases that decoded on a harness path (legacy or secure).
  package private(set) var decoded = 0
  /// Passed cases rejected on both harness paths as their manifests expect, by the secure
  /// path's category.
  package private(set) var rejected: [RejectionCategory: Int] = [:]
  /// Manifests in the order first seen, with whether any of their cases decoded.
  private var manifests: [(manifest: String, decoded: Bool)] = []

  /// An empty tally.
  package init() {}

  /// Passed archive entries counted: those decoded, those rejected as expected, and those
  /// with neither (a path not run).
  package private(set) var counted = 0

  /// Counts a case, when it is a passed archive entry; a store check reads no archive on the
  /// decode paths, and is not counted.
  package mutating func add(_ item: VerificationCase) {
    guard item.status == .passed, !item.isStoreCheck else { return }
    counted += 1
    let harness = item.paths.filter { $0.path == .decode(.secure) || $0.path == .decode(.legacy) }
    var decodedHere = false
    if harness.contains(where: { $0.outcome == .decoded }) {
      decoded += 1
      decodedHere = true
    } else if let read = harness.first(where: { $0.path == .decode(.secure) }) ?? harness.first,
      case .rejection(let category)? = read.category
    {
      rejected[category, default: 0] += 1
    }
    if let index = manifests.firstIndex(where: { $0.manifest == item.manifest }) {
      manifests[index].decoded = manifests[index].decoded || decodedHere
    } else {
      manifests.append((item.manifest, decodedHere))
    }
  }

  /// `10 decoded, 14 rejected as expected (5 truncated, 9 wrong-root-class)`.
  package var summary: String {
    let total = rejected.values.reduce(0, +)
    guard total > 0 else { return "\(decoded) decoded" }
    let categories = rejected.sorted { $0.key.rawValue < $1.key.rawValue }
      .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    return "\(decoded) decoded, \(total) rejected as expected (\(categories))"
  }

  /// The manifests none of whose passed cases decoded, in the order seen.
  package var manifestsWithNothingDecoded: [String] {
    manifests.filter { !$0.decoded }.map(\.manifest)
  }

  package static func == (lhs: ReadTally, rhs: ReadTally) -> Bool {
    lhs.decoded == rhs.decoded && lhs.rejected == rhs.rejected
      && lhs.manifests.map(\.manifest) == rhs.manifests.map(\.manifest)
      && lhs.manifests.map(\.decoded) == rhs.manifests.map(\.decoded)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(decoded)
    hasher.combine(rejected)
    hasher.combine(manifests.map(\.manifest))
  }
}
