/// Collects a report's chunks as one text.
final class CollectedText: @unchecked Sendable {
  private(set) var text = ""
  func append(_ chunk: String) { text += chunk }
}
