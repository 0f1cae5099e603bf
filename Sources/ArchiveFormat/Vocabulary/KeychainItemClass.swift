/// The class of a Keychain item (`kSecClass`) that a snapshot holds or a manifest's query asks for.
///
/// The raw values are the names snapshots and manifests spell; the Security constants are
/// mapped only where Security is called.
///
/// ```swift
/// KeychainItemClass(rawValue: "genericPassword")  // .genericPassword
/// ```
package enum KeychainItemClass: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// `kSecClassGenericPassword`: named by service (`kSecAttrService`) and account.
  case genericPassword
  /// `kSecClassInternetPassword`: named by server (`kSecAttrServer`, a snapshot's `service`)
  /// and account.
  case internetPassword

  /// The name, such as `genericPassword`.
  package var description: String { rawValue }
}
