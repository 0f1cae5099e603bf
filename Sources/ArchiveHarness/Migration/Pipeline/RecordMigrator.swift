import ArchiveFormat

/// Decides what happens to one record: classify it, run the transform, and check the result again.
///
/// Whatever the transform says, a replacement is refused when it is empty,
/// when it does not read as a keyed archive, or when an object the original
/// held at a `$top` key became nil: an empty read must never be saved over
/// the original.
package struct RecordMigrator: Sendable {
  /// The transform (rename-only or typed).
  package var transform: any RecordTransform
  /// The limits for reading records.
  package var limits: ArchiveLimits

  /// Creates a migrator.
  package init(transform: any RecordTransform, limits: ArchiveLimits = .default) {
    self.transform = transform
    self.limits = limits
  }

  /// Plans one record.
  package func plan(_ record: StoreRecord) -> RecordPlan {
    switch prepare(record) {
    case .decided(let plan):
      return plan
    case .transform(let input):
      return finish(
        record, bytes: input.bytes, archive: input.archive, result: transform.transform(input))
    }
  }

  /// Plans records; when the transform `RecordTransform.prefersBatches`, every record that
  /// reads as an archive goes to it at once (`RecordTransform.transform(batch:)`), so a
  /// transform that runs in a worker process makes one round trip per slice.
  ///
  /// - Parameter records: The records, in store order.
  /// - Returns: One plan per record, in the same order.
  package func plan(_ records: [StoreRecord]) -> [RecordPlan] {
    guard transform.prefersBatches else { return records.map(plan) }
    var plans: [RecordPlan?] = []
    plans.reserveCapacity(records.count)
    var inputs: [TransformInput] = []
    var pending: [(index: Int, archive: KeyedArchive)] = []
    for record in records {
      switch prepare(record) {
      case .decided(let plan):
        plans.append(plan)
      case .transform(let input):
        pending.append((plans.count, input.archive))
        inputs.append(input)
        plans.append(nil)
      }
    }
    if !inputs.isEmpty {
      let results = transform.transform(batch: inputs)
      for (position, item) in pending.enumerated() {
        let record = records[item.index]
        guard position < results.count else {
          plans[item.index] = RecordPlan(
            record: record,
            outcome: .refused(RecordRefusal(.decode, "the transform gave no result for the record"))
          )
          continue
        }
        plans[item.index] = finish(
          record, bytes: inputs[position].bytes, archive: item.archive, result: results[position])
      }
    }
    return zip(records, plans).map { record, plan in
      plan ?? RecordPlan(record: record, outcome: .skipped("not planned"))
    }
  }

  /// A record either decided without the transform, or ready for it.
  private enum Preparation {
    case decided(RecordPlan)
    case transform(TransformInput)
  }

  /// Classifies a record: NULL, not an archive, unreadable, refused by the store, or an input.
  private func prepare(_ record: StoreRecord) -> Preparation {
    let bytes: [UInt8]
    switch record.content {
    case .null:
      return .decided(RecordPlan(record: record, outcome: .skipped("the value is NULL")))
    case .unsupported(let reason):
      return .decided(RecordPlan(record: record, outcome: .skipped(reason)))
    case .refused(let reason):
      // The migration did not read it, so what the app's read does is not known.
      var refusal = RecordRefusal(.read, reason)
      refusal.currentReadFails = nil
      return .decided(RecordPlan(record: record, outcome: .refused(refusal)))
    case .bytes(let value):
      bytes = value
    }
    guard !bytes.isEmpty else {
      return .decided(RecordPlan(record: record, outcome: .skipped("the value is empty")))
    }
    guard NestedArchive.looksLikePropertyList(bytes) else {
      return .decided(
        RecordPlan(
          record: record, outcome: .skipped("not an archive: not a binary or XML property list")))
    }
    let archive: KeyedArchive
    var view: BinaryPropertyListView?
    do {
      if transform is RenameOnlyTransform {
        // A binary list is read through a view, kept for the rename at the byte level.
        (archive, view) = try KeyedArchive.readKeepingView(bytes, limits: limits)
      } else {
        archive = try KeyedArchive(bytes: bytes, limits: limits)
      }
    } catch {
      if [.notAnArchive, .missingArchiver, .wrongArchiver].contains(error.code) {
        return .decided(
          RecordPlan(
            record: record,
            outcome: .skipped(
              "not an archive: a property list but not a keyed archive (\(error.message))")))
      }
      return .decided(
        RecordPlan(
          record: record,
          outcome: .refused(
            RecordRefusal(
              .read, "the archive does not read: \(error.description)",
              category: RecordRefusal.structuralCategory(error)))))
    }
    return .transform(TransformInput(id: record.id, bytes: bytes, archive: archive, view: view))
  }

  /// Turns the transform's result into a plan, checking a replacement again whatever it says.
  private func finish(
    _ record: StoreRecord, bytes: [UInt8], archive: KeyedArchive, result: TransformResult
  ) -> RecordPlan {
    switch result {
    case .unchanged:
      return RecordPlan(record: record, outcome: .alreadyCurrent)
    case .refused(let refusal):
      return RecordPlan(record: record, outcome: .refused(refusal))
    case .rewritten(let replacement, let summary, let reread):
      if replacement == bytes {
        return RecordPlan(record: record, outcome: .alreadyCurrent)
      }
      if let refusal = Self.check(replacement, reread: reread, against: archive, limits: limits) {
        return RecordPlan(record: record, outcome: .refused(refusal))
      }
      return RecordPlan(
        record: record, outcome: .willRewrite(summary: summary), replacement: replacement)
    }
  }

  /// The refusal for a replacement that must never be written, or `nil` when it is safe to write.
  static func check(
    _ replacement: [UInt8], reread: KeyedArchive?, against original: KeyedArchive,
    limits: ArchiveLimits
  ) -> RecordRefusal? {
    guard !replacement.isEmpty else {
      return RecordRefusal(
        .encode, "the transform produced no bytes; an empty value is never written over a record")
    }
    let archive: KeyedArchive
    do throws(KeyedArchiveError) {
      if let reread {
        archive = reread
      } else {
        archive = try KeyedArchive(bytes: replacement, limits: limits)
      }
    } catch {
      return RecordRefusal(
        .reRead, "the new bytes are not a readable keyed archive: \(error.description)",
        category: RecordRefusal.structuralCategory(error))
    }
    guard archive.top.entries.contains(where: { !isNil($0.value, in: archive) }) else {
      return RecordRefusal(
        .decode,
        "the new archive's root is nil (an empty decode); it is never written over a record")
    }
    for entry in original.top.entries where !isNil(entry.value, in: original) {
      guard let counterpart = archive.top[entry.key], !isNil(counterpart, in: archive) else {
        return RecordRefusal(
          .decode,
          "the original holds an object at $top.\(entry.key) but the new archive holds nil there")
      }
    }
    return nil
  }

  private static func isNil(_ value: PropertyListValue, in archive: KeyedArchive) -> Bool {
    guard case .uid(let index) = value else { return false }
    guard let object = archive.object(at: Int(index)) else { return true }
    if case .null = object { return true }
    return false
  }
}
