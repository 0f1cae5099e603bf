import ArchiveFormat

/// A secure-coding mistake the harness coder saw on the secure path, which Apple's platforms
/// only log today: the rule, the class, the key path, and the exact fix.
///
/// The coder records one finding per allowed classes list that names `NSObject`, per class a
/// list admits only implicitly, and per `decodeObject(forKey:)` call on the secure coder. Its
/// ``severity`` is ``Severity/warning`` as recorded; `Verifier` makes it ``Severity/error``
/// under ``Strictness/appleFuture``. ``fix`` is the whole list to write, every class the read
/// or call decoded through it, `NSObject` left out.
///
/// ```swift
/// for finding in verificationCase.strictnessFindings {
///   print("\(finding.severity): [\(finding.rule)] \(finding)")
///   // error: [unlisted-plist-class] root.tags[0]: NSString decoded although …
///   print(finding.fixText)  // decodeObject(of: [NSArray.self, NSString.self], forKey: "tags")
/// }
/// ```
package struct StrictnessFinding: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The rule the read breaks.
  package var rule: StrictnessRule
  /// How serious the finding is: a warning today, an error under ``Strictness/appleFuture``.
  package var severity: Severity
  /// The class the finding names: `NSObject` (`StrictnessRule.nsObjectAllowed`), the class
  /// decoded without being listed (`StrictnessRule.unlistedPropertyListClass`), or the class
  /// whose `init?(coder:)` decodes without classes (`StrictnessRule.untypedDecode`).
  package var className: String
  /// Where in the decoded graph: `root`, `root.tags[0]`, `$top.$1.title`.
  package var keyPath: String
  /// The class whose `init?(coder:)` makes the decode call the finding is about; `nil` when
  /// the list is the read's own allowed classes (a manifest's `allowedClasses`).
  package var decoder: String?
  /// The key of that decode call; `nil` for the read's own list.
  package var key: String?
  /// The list as the read or call gave it, runtime names in its order; empty for
  /// `StrictnessRule.untypedDecode`.
  package var allowedClasses: [String]
  /// The list to write instead: runtime names, such as `["NSArray", "NSString"]`.
  package var fix: [String]

  /// Creates a finding.
  ///
  /// ```swift
  /// let finding = StrictnessFinding(
  ///   rule: .unlistedPropertyListClass, className: "NSString", keyPath: "root.tags[0]",
  ///   decoder: "NotesKit.Note", key: "tags", allowedClasses: ["NSArray"],
  ///   fix: ["NSArray", "NSString"])
  /// ```
  ///
  /// - Parameters:
  ///   - rule: The rule the read breaks.
  ///   - severity: How serious it is; a warning unless said.
  ///   - className: The class the finding names.
  ///   - keyPath: Where in the decoded graph.
  ///   - decoder: The class whose `init?(coder:)` makes the call; `nil` for the read's list.
  ///   - key: The call's key; `nil` for the read's list.
  ///   - allowedClasses: The list as given.
  ///   - fix: The list to write.
  package init(
    rule: StrictnessRule, severity: Severity = .warning, className: String, keyPath: String,
    decoder: String? = nil, key: String? = nil, allowedClasses: [String] = [], fix: [String]
  ) {
    self.rule = rule
    self.severity = severity
    self.className = className
    self.keyPath = keyPath
    self.decoder = decoder
    self.key = key
    self.allowedClasses = allowedClasses
    self.fix = fix
  }

  /// The fix as code to write: `allowedClasses: [ProfileKit.Memo.self, NSString.self]` for
  /// the read's list, `decodeObject(of: [NSArray.self, NSString.self], forKey: "tags")` for a
  /// decode call.
  package var fixText: String {
    let list = "[" + fix.map { "\($0).self" }.joined(separator: ", ") + "]"
    guard let key else { return "allowedClasses: \(list)" }
    return "decodeObject(of: \(list), forKey: \(SwiftLiteral.quoted(key)))"
  }

  /// What the finding says, without its key path: the class, the list, what Apple does, and
  /// the fix.
  package var message: String {
    let given = "[" + allowedClasses.joined(separator: ", ") + "]"
    let list: String
    if let decoder, let key {
      list =
        "the classes \(given) \(decoder)'s init?(coder:) allows for key \(SwiftLiteral.quoted(key))"
    } else {
      list = "the read's allowed classes \(given)"
    }
    switch rule {
    case .nsObjectAllowed:
      return
        "\(list) name NSObject, which lets any class decode; Apple logs that this bypasses "
        + "security and will become an error; write \(fixText)"
    case .unlistedPropertyListClass:
      return
        "\(className) decoded although \(list) do not name it; Apple allows property-list "
        + "classes implicitly today and logs that this will be disallowed in the future; "
        + "write \(fixText)"
    case .untypedDecode:
      return
        "\(className)'s init?(coder:) calls decodeObject(forKey: \(SwiftLiteral.quoted(key ?? ""))) "
        + "on a coder that requires secure coding; write \(fixText)"
        + (fix.isEmpty ? ", naming the classes the key may hold (this archive holds none)" : "")
    }
  }

  /// The key path, then the message.
  package var description: String { "\(keyPath): \(message)" }

}
