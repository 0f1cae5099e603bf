import Foundation
import NotesV1

/// The notes the generator archives: fixed identifiers, dates and text, so that a regenerated
/// archive has the same fields.
enum SampleNotes {
  /// 2023-04-01T09:30:00Z, when version 1.0's sample notes were written.
  static let created = Date(timeIntervalSince1970: 1_680_341_400)

  /// A note with every field set, the attachment included.
  static func full() -> Note {
    Note(
      id: uuid(1), title: "Groceries", body: "Milk, eggs, bread. Eggs from the market.",
      created: created, link: URL(string: "https://example.com/market"),
      tags: ["home", "errands"],
      attachment: Attachment(
        fileName: "list.png", mimeType: "image/png",
        contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])),
      priority: "high", isPinned: true)
  }

  /// A note without the optional fields: no link, no attachment.
  static func minimal() -> Note {
    Note(
      id: uuid(2), title: "Call Sam", body: "About the trip.", created: created + 3_600,
      tags: [], priority: "low")
  }

  /// A notebook of three notes; the second and third share one attachment object.
  static func notebook() -> Notebook {
    let shared = Attachment(
      fileName: "trip.pdf", mimeType: "application/pdf", contents: Data("%PDF-1.4".utf8))
    return Notebook(
      title: "Travel",
      notes: [
        minimal(),
        Note(
          id: uuid(3), title: "Tickets", body: "Train at 8.", created: created + 7_200,
          tags: ["travel"], attachment: shared, priority: "normal"),
        Note(
          id: uuid(4), title: "Hotel", body: "Check in after 3.", created: created + 10_800,
          link: URL(string: "https://example.com/hotel"), tags: ["travel", "booking"],
          attachment: shared, priority: "high"),
      ])
  }

  /// The `index`-th record of a generated store.
  static func record(_ index: Int) -> Note {
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
  static func uuid(_ number: Int) -> UUID {
    let suffix = String(number, radix: 16)
    let padded = String(repeating: "0", count: max(0, 12 - suffix.count)) + suffix
    return UUID(uuidString: "5A17E000-0000-4000-8000-\(padded.uppercased())") ?? UUID()
  }
}
