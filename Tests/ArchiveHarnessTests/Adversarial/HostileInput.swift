import ArchiveFormat
import HarnessTestSupport
import Testing
import _ArchiveHarnessSystem

/// Raw encodings and checks that the adversarial tests share.
enum HostileInput {
  /// A binary object marker followed by its count, in the extended form (`0xF` then an integer) when needed.
  static func marker(_ high: UInt8, count: UInt64, countWidthExponent: UInt8? = nil) -> [UInt8] {
    if count < 15, countWidthExponent == nil {
      return [high | UInt8(count)]
    }
    let exponent =
      countWidthExponent ?? (count <= 0xFF ? 0 : count <= 0xFFFF ? 1 : count <= 0xFFFF_FFFF ? 2 : 3)
    var bytes: [UInt8] = [high | 0x0F, 0x10 | exponent]
    BinaryPlistBuilder.append(count, width: 1 << Int(exponent), to: &bytes)
    return bytes
  }

  /// An array object of references of `width` bytes each.
  static func array(_ references: [Int], width: Int) -> [UInt8] {
    var bytes = marker(0xA0, count: UInt64(references.count))
    for reference in references {
      BinaryPlistBuilder.append(UInt64(reference), width: width, to: &bytes)
    }
    return bytes
  }

  /// A dictionary object of references of `width` bytes each.
  static func dictionary(keys: [Int], values: [Int], width: Int) -> [UInt8] {
    var bytes = marker(0xD0, count: UInt64(keys.count))
    for reference in keys + values {
      BinaryPlistBuilder.append(UInt64(reference), width: width, to: &bytes)
    }
    return bytes
  }

  /// An ASCII string object of any length.
  static func ascii(_ text: String) -> [UInt8] {
    marker(0x50, count: UInt64(text.utf8.count)) + Array(text.utf8)
  }

  /// A UTF-16 string object from raw code units, valid or not.
  static func utf16(_ units: [UInt16]) -> [UInt8] {
    var bytes = marker(0x60, count: UInt64(units.count))
    for unit in units {
      bytes.append(UInt8(unit >> 8))
      bytes.append(UInt8(unit & 0xFF))
    }
    return bytes
  }

  /// A date object.
  static func date(_ seconds: Double) -> [UInt8] {
    var bytes: [UInt8] = [0x33]
    BinaryPlistBuilder.append(seconds.bitPattern, width: 8, to: &bytes)
    return bytes
  }

  /// Assembles objects into a binary list whose offsets and references are four bytes wide.
  static func binaryList(_ objects: [[UInt8]], top: UInt64 = 0) -> [UInt8] {
    var builder = BinaryPlistBuilder(objects: objects)
    builder.top = top
    builder.offsetSize = 4
    builder.referenceSize = 4
    return builder.build()
  }

  /// The error reading a property list, or a recorded issue when it reads.
  static func plistError(
    _ bytes: [UInt8], limits: PropertyListLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> PropertyListError? {
    do {
      let value = try PropertyListReader(limits: limits).read(bytes)
      Issue.record(
        "read \(value.typeNameWithArticle), expected an error", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  /// The error reading a keyed archive, or a recorded issue when it reads.
  static func archiveError(
    _ bytes: [UInt8], limits: ArchiveLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> KeyedArchiveError? {
    do {
      _ = try KeyedArchive(bytes: bytes, limits: limits)
      Issue.record("read an archive, expected an error", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  /// Runs every walk a client can make of an archive: tree, JSON, leaves, children and re-encoding.
  ///
  /// - Returns: The sizes of the tree and JSON outputs, in bytes.
  @discardableResult
  static func walkEverything(_ archive: KeyedArchive, limits: ArchiveLimits = .default) throws -> (
    tree: Int, json: Int
  ) {
    let tree = ArchiveTreePrinter(limits: limits).render(archive)
    let json = ArchiveJSON.text(for: archive)
    for index in archive.objects.indices {
      _ = archive.leaf(of: .object(index))
      _ = archive.elementCount(of: .object(index))
    }
    let written = BinaryPropertyListWriter().write(archive.propertyList)
    let reread = try KeyedArchive(bytes: written, limits: limits)
    #expect(reread == archive)
    return (tree.utf8.count, json.utf8.count)
  }

  /// Measures how long a piece of work takes.
  static func seconds(_ work: () throws -> Void) rethrows -> Double {
    try MonotonicInstant.measure(work).seconds
  }
}

extension HostileInput {
  /// The index of the first payload object in ``archive(payload:)``.
  static let payloadIndex = 17

  /// A binary keyed archive whose root instance (class `Payload`) holds one field, `payload`, that is object 17.
  ///
  /// - Parameter payload: The raw objects from index 17 on; the first is the field's value.
  /// - Returns: The bytes, with four-byte offsets and references.
  static func archive(payload: [[UInt8]]) -> [UInt8] {
    let className = payloadIndex + payload.count
    var objects: [[UInt8]] = []
    objects.append(dictionary(keys: [1, 2, 3, 4], values: [5, 6, 7, 10], width: 4))
    objects.append(ascii("$archiver"))
    objects.append(ascii("$version"))
    objects.append(ascii("$top"))
    objects.append(ascii("$objects"))
    objects.append(ascii("NSKeyedArchiver"))
    objects.append([0x12, 0x00, 0x01, 0x86, 0xA0])
    objects.append(dictionary(keys: [8], values: [9], width: 4))
    objects.append(ascii("root"))
    objects.append([0x80, 0x01])
    // $objects: $null, the instance, its class.
    objects.append(array([11, 12, 13], width: 4))
    objects.append(ascii("$null"))
    objects.append(dictionary(keys: [14, 16], values: [15, payloadIndex], width: 4))
    objects.append(dictionary(keys: [className], values: [className + 1], width: 4))
    objects.append(ascii("$class"))
    objects.append([0x80, 0x02])
    objects.append(ascii("payload"))
    objects += payload
    objects.append(ascii("$classname"))
    objects.append(ascii("Payload"))
    return binaryList(objects)
  }

  /// An XML keyed archive whose root instance holds one field, `payload`, written as the given XML.
  static func xmlArchive(payload: String) -> [UInt8] {
    let document = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>$archiver</key><string>NSKeyedArchiver</string>
      <key>$version</key><integer>100000</integer>
      <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
      <key>$objects</key><array><string>$null</string>
      <dict><key>$class</key><dict><key>CF$UID</key><integer>2</integer></dict>
      <key>payload</key>\(payload)</dict>
      <dict><key>$classname</key><string>Payload</string></dict>
      </array></dict></plist>
      """
    return Array(document.utf8)
  }
}
