/// A secure-coding rule Apple's platforms only log today and have said they will enforce.
///
/// The harness coder records each breach on the secure path; ``Strictness`` decides whether it
/// is a warning or an error. The raw values are the names reports and JSON use.
///
/// ```swift
/// StrictnessRule(rawValue: "untyped-decode")  // .untypedDecode
/// print(StrictnessRule.nsObjectAllowed)  // nsobject-allowed
/// ```
package enum StrictnessRule: String, Sendable, Hashable, Codable, CaseIterable,
  CustomStringConvertible
{
  /// An allowed classes list names `NSObject`, which lets any class decode. Apple logs
  /// "allowed classes list contains [NSObject class], which bypasses security … This will
  /// become an error in the future".
  case nsObjectAllowed = "nsobject-allowed"
  /// A property-list class (`NSString`, `NSNumber`, `NSDate`, `NSData`, `NSArray`,
  /// `NSDictionary`, `NSSet`) decoded although the list that decoded it does not name it.
  /// Apple logs "… was not in the allowed classes … This will be disallowed in the future".
  case unlistedPropertyListClass = "unlisted-plist-class"
  /// An `init?(coder:)` calls `decodeObject(forKey:)` on a coder that requires secure coding,
  /// instead of `decodeObject(of:forKey:)` naming the classes it expects.
  case untypedDecode = "untyped-decode"

  /// The rule's name, such as `unlisted-plist-class`.
  package var description: String { rawValue }

}
