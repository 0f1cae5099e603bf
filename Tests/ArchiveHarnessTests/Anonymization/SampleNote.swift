import ArchiveFormat
import Foundation

/// A note archive full of personal data, shaped as NSKeyedArchiver writes it, with shared references and a cycle.
enum SampleNote {
  /// The strings of the note that are personal data; none may survive anonymization.
  static let personalStrings = [
    "Meeting with Alice Example", "Alice Example", "alice.example@corp-mail.de",
    "+49 30 1234567", "Walldorf", "https://intranet.corp-mail.de/users/alice/profile.png",
    "DE89 3704 0044 0532 0130 00", "81.2.69.160",
    "Bearer k8Jd93hFq2LmZ7xWv4Rt1NbQe6YsPa0C",
  ]

  /// When the note was created: 2023-03-08T21:26:40Z.
  static let created = 700_000_000.0
  /// The author's birthday: 1990-05-17T00:00:00Z.
  static let birthday = -336_700_800.0
  /// The note's identifier.
  static let identifier: [UInt8] = [
    0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F,
  ]
  /// A PNG's signature and some bytes.
  static let attachment: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3, 4, 5, 6,
  ]

  /// The archive's bytes; `title` replaces the note's title.
  static func bytes(title: String = "Meeting with Alice Example", city: String = "Walldorf")
    -> [UInt8]
  {
    var builder = KeyedArchiveBuilder()
    let note = builder.reserve()
    let person = builder.reserve()
    let cityObject = builder.string(city)
    let address = builder.object("NotesApp.Address", [("city", cityObject)])
    let birthdayObject = builder.object("NSDate", [("NS.time", .real(birthday))])
    let name = builder.string("Alice Example")
    let email = builder.string("alice.example@corp-mail.de")
    let phone = builder.string("+49 30 1234567")
    let personValue = builder.instanceValue(
      "NotesApp.Person",
      [
        ("name", name), ("email", email), ("phone", phone), ("address", address),
        ("customerNumber", .integer(4711)), ("birthday", birthdayObject), ("notes", note),
      ])
    builder.fill(person, with: personValue)
    let work = builder.string("work")
    let berlin = builder.string("Berlin")
    let tags = builder.array([work, berlin, work])
    let createdObject = builder.object("NSDate", [("NS.time", .real(created))])
    let identifierObject = builder.object("NSUUID", [("NS.uuidbytes", .data(identifier))])
    let linkText = builder.string("https://intranet.corp-mail.de/users/alice/profile.png")
    let link = builder.object(
      "NSURL", [("NS.base", KeyedArchiveBuilder.null), ("NS.relative", linkText)])
    let attachmentObject = builder.object("NSData", [("NS.data", .data(attachment))])
    let keys = [builder.string("theme"), builder.string("owner@corp-mail.de")]
    let values = [builder.string("dark"), name]
    let metadata = builder.dictionary(keys: keys, values: values)
    let titleObject = builder.string(title)
    let iban = builder.string("DE89 3704 0044 0532 0130 00")
    let server = builder.string("81.2.69.160")
    let authorization = builder.string("Bearer k8Jd93hFq2LmZ7xWv4Rt1NbQe6YsPa0C")
    let reviewers = builder.array([person])
    let place = builder.string(city)
    let noteValue = builder.instanceValue(
      "NotesApp.Note",
      [
        ("title", titleObject), ("author", person), ("tags", tags), ("created", createdObject),
        ("identifier", identifierObject), ("link", link), ("attachment", attachmentObject),
        ("metadata", metadata), ("version", .integer(3)), ("score", .real(4.25)),
        ("pinned", .bool(true)), ("iban", iban), ("server", server),
        ("authorization", authorization), ("reviewers", reviewers), ("place", place),
      ])
    builder.fill(note, with: noteValue)
    builder.setRoot(note)
    return builder.bytes()
  }

  /// The note as a validated archive.
  static func archive() throws -> KeyedArchive {
    try KeyedArchive(bytes: bytes())
  }

  /// The manifest entry text for an anonymized note: only expectations a pseudonym keeps.
  static let expectations = """
    <rootClass name="NotesApp.Note"/>
    <class key="author" name="NotesApp.Person"/>
    <matches key="title" pattern="^[A-Z][a-z]+ [a-z]+ [A-Z][a-z]+ [A-Z][a-z]+$"/>
    <matches key="author.name" pattern="^[A-Z][a-z]+ [A-Z][a-z]+$"/>
    <matches key="author.email" pattern="^[a-z]+\\.[a-z]+@[a-z.]+$"/>
    <matches key="author.phone" pattern="^\\+\\d{2} \\d{2} \\d{7}$"/>
    <matches key="server" pattern="^\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$"/>
    <matches key="link" pattern="^https://[a-z.]+/[a-z]+/[a-z]+/[a-z]+\\.png$"/>
    <maxLength key="title" utf16="26"/>
    <maxLength key="author.address.city" utf16="8"/>
    <maxLength key="author.email" utf16="26"/>
    <count key="tags" equals="3"/>
    <count key="reviewers" equals="1"/>
    <integer key="version">3</integer>
    <integer key="author.customerNumber">4711</integer>
    <range key="score" min="4" max="5"/>
    <bool key="pinned">true</bool>
    <present key="created"/>
    <present key="identifier"/>
    <present key="attachment"/>
    """
}
