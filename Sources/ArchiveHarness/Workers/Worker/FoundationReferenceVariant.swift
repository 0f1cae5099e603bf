import ArchiveCoder

/// How the Foundation reference path calls `NSKeyedUnarchiver`: the app's way, or one of the
/// entry points and settings whose corelibs behaviour the harness documents.
package enum FoundationReferenceVariant: String, Sendable, Hashable, Codable, CaseIterable {
  /// `init(forReadingFrom:)`, `.setErrorAndReturn` set before decoding, then the root decode.
  case standard
  /// As ``standard`` but leaving the default policy, `.raiseException`.
  case defaultFailurePolicy = "default-failure-policy"
  /// As ``standard``, then setting the policy again after decoding started.
  case policyChangeAfterDecoding = "policy-change-after-decoding"
  /// The deprecated `unarchiveTopLevelObjectWithData(_:)`.
  case unarchiveTopLevelObject = "unarchive-top-level-object"
  /// The deprecated `unarchiveObject(with:)`.
  case unarchiveObject = "unarchive-object"
}
