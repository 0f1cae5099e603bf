/// The classes one secure decode call accepts, by runtime name, in the order the caller gave.
struct AllowedClassList: Hashable {
  let names: [String]

  /// Whether a registered class passes: it is a listed class or a subclass of one, by its
  /// real hierarchy.
  func admits(_ registered: RegisteredClass) -> Bool {
    names.contains { registered.isKind(of: $0) }
  }

  /// The list as messages print it: `[ProfileKit.UserProfile, NSString]`.
  var rendered: String { "[" + names.joined(separator: ", ") + "]" }
}
