/// The two property-list formats this package reads and writes.
package enum PropertyListFormat: String, Hashable, Sendable {
  /// `bplist00`.
  case binary
  /// `<plist version="1.0">`.
  case xml
}
