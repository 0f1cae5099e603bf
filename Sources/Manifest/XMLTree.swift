/// An element of a parsed and validated XML document, copied out of libxml2.
///
/// The rest of the module reads manifests through this tree, so only the reader
/// touches C pointers.
struct XMLTree: Sendable {
  /// An attribute value with where it was written.
  struct Attribute: Sendable {
    var value: String
    var location: ManifestLocation
  }

  /// The element's local name.
  var name: String
  /// The element's namespace URI, if any.
  var namespace: String?
  /// The attributes by local name.
  var attributes: [String: Attribute]
  /// The child elements, in document order.
  var children: [XMLTree]
  /// The element's text, for an element without child elements; empty otherwise.
  var text: String
  /// Where the element's start tag begins.
  var location: ManifestLocation
  /// The index of the element in the source map of its file.
  var sourceIndex: Int

  /// The value of an attribute, if written.
  subscript(attribute name: String) -> String? { attributes[name]?.value }

  /// The location of an attribute, or of the element when the attribute is absent.
  func location(ofAttribute name: String) -> ManifestLocation {
    attributes[name]?.location ?? location
  }

  /// The children with a local name.
  func children(named name: String) -> [XMLTree] { children.filter { $0.name == name } }

  /// The first child with a local name.
  func child(named name: String) -> XMLTree? { children.first { $0.name == name } }
}
