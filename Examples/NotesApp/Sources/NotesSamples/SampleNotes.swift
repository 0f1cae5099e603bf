import Foundation
import NotesV1

/// The notes a test device gave the team: version 1.0 objects with the personal data real
/// notes hold (names, emails, a phone number, dates, a home page), fixed so that a regenerated
/// raw archive has the same fields.
///
/// They are written to `RawArchives/`, which is never committed; `scripts/record-archives`
/// anonymizes them into `LegacyArchives/`. ``personalStrings`` lists what must never reach
/// a committed archive, and the tests check that it does not.
public enum SampleNotes {
  /// 2023-04-01T09:30:00Z, when the device's notes were written.
  public static let created = Date(timeIntervalSince1970: 1_680_341_400)

  /// A note with every field set, the attachment included.
  public static func full() -> Note {
    Note(
      id: uuid(1), title: "Dinner with Maren Holt",
      body: "Call Maren on +49 171 4839201 or mail maren.holt@posteo.de; "
        + "table at Lindenhof on 14.04.2023 19:30.",
      created: created, link: URL(string: "https://maren-holt.de/dinner"),
      tags: ["family", "lindenhof"],
      attachment: Attachment(
        fileName: "maren-holt-id.png", mimeType: "image/png",
        contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])),
      priority: "high", isPinned: true)
  }

  /// A note without the optional fields: no link, no attachment.
  public static func minimal() -> Note {
    Note(
      id: uuid(2), title: "Call Jonas Weber", body: "About the trip. Jonas: 030 90182746.",
      created: created + 3_600, tags: [], priority: "low")
  }

  /// A notebook of three notes; the second and third share one attachment object.
  public static func notebook() -> Notebook {
    let shared = Attachment(
      fileName: "jonas-weber-tickets.pdf", mimeType: "application/pdf",
      contents: Data("%PDF-1.4".utf8))
    return Notebook(
      title: "Travel with Maren",
      notes: [
        minimal(),
        Note(
          id: uuid(3), title: "Tickets", body: "Train at 8, seats booked for j.weber@gmx.de.",
          created: created + 7_200, tags: ["travel"], attachment: shared, priority: "normal"),
        Note(
          id: uuid(4), title: "Hotel Adler", body: "Check in after 3, booked by Maren Holt.",
          created: created + 10_800, link: URL(string: "https://hotel-adler.de/booking"),
          tags: ["travel", "booking"], attachment: shared, priority: "high"),
      ])
  }

  /// The personal data in the device's notes, as written: none of it may appear in a committed archive.
  public static let personalStrings = [
    "Maren", "Holt", "Jonas", "Weber", "maren.holt@posteo.de", "j.weber@gmx.de", "posteo",
    "+49 171 4839201", "4839201", "90182746", "maren-holt.de", "Lindenhof", "hotel-adler.de",
    "Adler", "14.04.2023", "2023-04-14", "family", "tickets",
  ]

  /// The `index`-th record of a generated store: synthetic, for migration tests.
  public static func record(_ index: Int) -> Note {
    Note(
      id: uuid(1_000 + index), title: "Note \(index)",
      body: "Record \(index) of the generated store, written by version 1.0.",
      created: created + Double(index), tags: ["generated", "batch-\(index % 10)"],
      attachment: index % 3 == 0
        ? Attachment(
          fileName: "r\(index).txt", mimeType: "text/plain", contents: Data("\(index)".utf8))
        : nil,
      priority: ["low", "normal", "high"][index % 3], isPinned: index % 7 == 0)
  }

  /// A fixed UUID whose last digits are `number`.
  public static func uuid(_ number: Int) -> UUID {
    let suffix = String(number, radix: 16)
    let padded = String(repeating: "0", count: max(0, 12 - suffix.count)) + suffix
    return UUID(uuidString: "5A17E000-0000-4000-8000-\(padded.uppercased())") ?? UUID()
  }
}
