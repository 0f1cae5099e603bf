import ArchiveFormat

/// What a manifest's Keychain queries (`KeychainQuery`) say about a snapshot's items: an
/// item the new app would no longer find, an item found with an accessibility looser than the
/// query requires, and a query that finds nothing.
///
/// ```swift
/// let findings = KeychainQueryFinding.check(snapshot, file: "keychain.json", queries: manifest.keychainQueries)
/// for finding in findings { print("\(finding.place): \(finding.severity): \(finding.message)") }
/// ```
package struct KeychainQueryFinding: Sendable, Hashable {
  /// The kinds of finding.
  package enum Kind: Sendable, Hashable {
    /// No query finds the item: after the update the app no longer reads it (a changed
    /// service, account or access group), and the user is logged out. The query that came
    /// nearest and the attributes it differs in, when a query of the item's class exists.
    case itemNotFound(nearest: KeychainQuery?, differing: [String])
    /// A query finds the item, but the item is readable more often than the query requires
    /// (`always` where `afterFirstUnlock` is required, say).
    case accessibilityLooser(query: KeychainQuery, required: KeychainAccessibility)
    /// A query that requires `ThisDeviceOnly` finds an item that can leave the device.
    case notThisDeviceOnly(query: KeychainQuery)
    /// A query finds no item of the snapshot.
    case queryFindsNothing(query: KeychainQuery)
  }

  /// What was found.
  package var kind: Kind
  /// How serious it is: an item lost or readable too often is an error, an idle query a warning.
  package var severity: Severity
  /// The item's place (`FILE:CLASS.SERVICE.ACCOUNT`), or the query's place in the manifest.
  package var place: Place
  /// The finding in a sentence.
  package var message: String

  /// Reads a snapshot file and checks every item against the queries: the one check
  /// `keychain check` and `verify` (a manifest's `<keychainSnapshot>`) both run.
  ///
  /// ```swift
  /// let checked = try KeychainQueryFinding.check(snapshotAt: "keychain.json", queries: queries)
  /// print(checked.snapshot.items.count, checked.findings.count)
  /// ```
  ///
  /// - Parameters:
  ///   - path: The snapshot file, which names each item's place.
  ///   - queries: The new app's queries.
  /// - Returns: The snapshot read and its findings, as ``check(_:file:queries:)`` gives them.
  /// - Throws: `MigrationError` naming the file and the place of its first problem.
  package static func check(snapshotAt path: String, queries: [KeychainQuery])
    throws(MigrationError) -> (snapshot: KeychainSnapshot, findings: [KeychainQueryFinding])
  {
    let snapshot = try KeychainSnapshotStore(path: path).snapshot
    return (snapshot, check(snapshot, file: path, queries: queries))
  }

  /// Checks every item of a snapshot against the queries.
  ///
  /// - Parameters:
  ///   - snapshot: The items.
  ///   - file: The snapshot's path, which names each item's place.
  ///   - queries: The new app's queries.
  /// - Returns: The findings: per item in the snapshot's order, then per idle query.
  package static func check(_ snapshot: KeychainSnapshot, file: String, queries: [KeychainQuery])
    -> [KeychainQueryFinding]
  {
    var findings: [KeychainQueryFinding] = []
    var used = Set<Int>()
    for item in snapshot.items {
      let place = RecordID.propertyListValue(file: file, keyPath: item.keyPath).place
      let finders = queries.indices.filter {
        queries[$0].finds(
          itemClass: item.itemClass, service: item.service, account: item.account,
          accessGroup: item.accessGroup)
      }
      used.formUnion(finders)
      guard !finders.isEmpty else {
        let nearest = queries.map { query in
          (
            query,
            query.mismatches(
              itemClass: item.itemClass, service: item.service, account: item.account,
              accessGroup: item.accessGroup)
          )
        }.filter { !$0.1.contains("class") }.min { $0.1.count < $1.1.count }
        var message = "no Keychain query of the manifest finds this item"
        if let nearest {
          message +=
            "; the nearest, \(nearest.0.summary) at \(nearest.0.place), differs in "
            + nearest.1.joined(separator: ", ")
        }
        findings.append(
          KeychainQueryFinding(
            kind: .itemNotFound(nearest: nearest?.0, differing: nearest?.1 ?? []),
            severity: .error, place: place, message: message + ": the app would lose it"))
        continue
      }
      for index in finders {
        let query = queries[index]
        if let required = query.accessible,
          item.accessible.availabilityRank > required.availabilityRank
        {
          findings.append(
            KeychainQueryFinding(
              kind: .accessibilityLooser(query: query, required: required), severity: .error,
              place: place,
              message:
                "the item is \(item.accessible.constantName), looser than the \(required.constantName) the query at \(query.place) requires"
            ))
        }
        if query.thisDeviceOnly || query.accessible?.isThisDeviceOnly == true,
          !item.accessible.isThisDeviceOnly
        {
          findings.append(
            KeychainQueryFinding(
              kind: .notThisDeviceOnly(query: query), severity: .error, place: place,
              message:
                "the item is \(item.accessible.constantName), which can leave the device; the query at \(query.place) requires a ThisDeviceOnly accessibility"
            ))
        }
      }
    }
    for (index, query) in queries.enumerated() where !used.contains(index) {
      findings.append(
        KeychainQueryFinding(
          kind: .queryFindsNothing(query: query), severity: .warning, place: query.place,
          message: "the query \(query.summary) finds no item of \(file)"))
    }
    return findings
  }
}
