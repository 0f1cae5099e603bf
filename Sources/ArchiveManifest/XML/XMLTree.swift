import ArchiveFormat

/// An element of a parsed and validated XML document, copied out of libxml2.
///
/// The rest of the module reads manifests through this tree, so only the reader
/// touches C pointers.
package struct XMLTree: Sendable {
  /// An attribute value with where it was written.
  package struct Attribute: Sendable {
    package var value: String
    package var location: Place
  }

  /// The element's local name.
  package var name: String
  /// The element's namespace URI, if any.
  package var namespace: String?
  /// The attributes by local name.
  package var attributes: [String: Attribute]
  /// The child elements, in document order.
  package var children: [XMLTree]
  /// The element's text, for an element without child elements; empty otherwise.
  package var text: String
  /// Where the element's start tag begins.
  package var location: Place
  /// The index of the element in the source map of its file.
  package var sourceIndex: Int

  /// The value of an attribute, if written.
  package subscript(attribute name: String) -> String? { attributes[name]?.value }

  /// The location of an attribute, or of the element when the attribute is absent.
  package func location(ofAttribute name: String) -> Place {
    attributes[name]?.location ?? location
  }

  /// The children with a local name.
  package func children(named name: String) -> [XMLTree] { children.filter { $0.name == name } }

  /// The first child with a local name.
  package func child(named name: String) -> XMLTree? { children.first { $0.name == name } }
}
