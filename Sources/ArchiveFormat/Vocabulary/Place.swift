/// Where something is: a file, and a position in it.
///
/// Every error, diagnostic and finding of the harness names its place with this one type,
/// from a byte offset in an archive to a row of a store. Its `description` is the form
/// every message prints: the file, a colon, then the position.
///
/// | Position | Printed |
/// |---|---|
/// | `Position.byteOffset(_:)` | `note.archive:offset 120` |
/// | `Position.line(_:column:)` | `manifests/Notes-1.0.xml:14:5` |
/// | `Position.keyPath(_:)` | `note.archive:$objects[3].$class` |
/// | `Position.row(table:key:column:)` | `Books.sqlite:ZBOOK[Z_PK=48]` |
/// | `Position.page(_:)` | `cache.sqlite:page 7` |
///
/// ```swift
/// let place = Place(file: "manifests/Notes-1.0.xml", line: 14, column: 5)
/// print(place)  // manifests/Notes-1.0.xml:14:5
/// print(Place(file: "cache.sqlite", position: .page(7)))  // cache.sqlite:page 7
/// ```
public struct Place: Sendable, Hashable, CustomStringConvertible {
  /// A position inside a file.
  public enum Position: Sendable, Hashable, CustomStringConvertible {
    /// A byte offset from the start of the file, such as a binary property list's object.
    case byteOffset(Int)
    /// A 1-based line and column of a text file (a manifest, an XML property list); a column
    /// of 0 is unknown.
    case line(Int, column: Int)
    /// A key path into a structured file: `$objects[3].$class` in an archive, `recent[2]`
    /// in a property list, `$.cases[4].paths` in a JSON report.
    case keyPath(String)
    /// A table of a database, a row of it by its key (`Z_PK=48`), and a column or
    /// attribute of that row; the key and column are `nil` when the place is the table.
    case row(table: String, key: String?, column: String?)
    /// A page of a database file, numbered from 1 as SQLite numbers them.
    case page(Int)

    /// A table of a database as a whole.
    ///
    /// ```swift
    /// Place(file: "Books.sqlite", position: .table("ZBOOK"))  // Books.sqlite:ZBOOK
    /// ```
    public static func table(_ name: String) -> Position {
      .row(table: name, key: nil, column: nil)
    }

    /// The position as messages print it: `offset 120`, `14:5`, `$objects[3]`,
    /// `ZBOOK[Z_PK=48]`, `page 7`.
    public var description: String {
      switch self {
      case .byteOffset(let offset): "offset \(offset)"
      case .line(let line, let column): column > 0 ? "\(line):\(column)" : "\(line)"
      case .keyPath(let path): path
      case .row(let table, let key, let column):
        table + (key.map { "[\($0)]" } ?? "") + (column.map { ".\($0)" } ?? "")
      case .page(let number): "page \(number)"
      }
    }
  }

  /// The file as the caller named it, or `nil` for a place inside input that has no name
  /// (bytes handed to a reader).
  public var file: String?
  /// Where in the file, or `nil` for the file as a whole.
  public var position: Position?

  /// Creates a place.
  ///
  /// ```swift
  /// let place = Place(file: "note.archive", position: .byteOffset(120))
  /// ```
  ///
  /// - Parameters:
  ///   - file: The file, as the caller named it.
  ///   - position: Where in it.
  public init(file: String?, position: Position? = nil) {
    self.file = file
    self.position = position
  }

  /// A line and column of a text file, the way manifest diagnostics are placed; a line of
  /// 0 means the file as a whole.
  ///
  /// ```swift
  /// let place = Place(file: "manifests/Notes-1.0.xml", line: 14, column: 5)
  /// ```
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - line: The 1-based line, or 0 when unknown.
  ///   - column: The 1-based column, or 0 when unknown.
  public init(file: String, line: Int, column: Int) {
    self.init(file: file, position: line > 0 ? .line(line, column: column) : nil)
  }

  /// A place written `FILE:LINE:COLUMN` or `FILE:LINE`, as reports write a manifest element's
  /// place; text that does not end in numbers is a file alone.
  ///
  /// ```swift
  /// Place(parsing: "manifests/Notes-1.0.xml:14:5").line  // 14
  /// ```
  public init(parsing text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    let numbers = parts.reversed().prefix(2).prefix { Int($0) != nil }.count
    guard numbers > 0, parts.count > numbers else {
      self.init(file: text)
      return
    }
    let file = parts.dropLast(numbers).joined(separator: ":")
    let tail = parts.suffix(numbers).compactMap { Int($0) }
    self.init(file: file, line: tail[0], column: tail.count > 1 ? tail[1] : 0)
  }

  /// A position in input that has no name; ``in(_:)`` names it later.
  ///
  /// ```swift
  /// let place = Place(.byteOffset(120)).in("note.archive")  // note.archive:offset 120
  /// ```
  public init(_ position: Position) {
    self.init(file: nil, position: position)
  }

  /// The same position in `file`, for a reader's place once its caller knows the file.
  public func `in`(_ file: String) -> Place {
    Place(file: file, position: position)
  }

  /// The 1-based line of a text position, or 0.
  public var line: Int {
    if case .line(let line, _) = position { line } else { 0 }
  }

  /// The 1-based column of a text position, or 0.
  public var column: Int {
    if case .line(_, let column) = position { column } else { 0 }
  }

  /// The place as messages print it: `FILE:POSITION`, the file alone, or the position alone.
  public var description: String {
    switch (file, position) {
    case (let file?, let position?): "\(file):\(position)"
    case (let file?, nil): file
    case (nil, let position?): position.description
    case (nil, nil): "<input>"
    }
  }
}
