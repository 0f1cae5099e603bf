import Foundation
import ProfileKit
import _ArchiveHarnessSystem

/// A secure class whose decoder allows a fixed set for its `address`, to show the message format.
final class StrictHolder: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true
  let address: Any?

  init?(coder: NSCoder) {
    address = coder.decodeObject(
      of: [ProfileKit.UserProfile.self, NSString.self], forKey: "address")
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(address, forKey: "address")
  }
}

/// A class that claims secure coding but reads with a plain `decodeObject(forKey:)`.
final class SloppySecureNote: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true
  let text: String

  init?(coder: NSCoder) {
    guard let text = coder.decodeObject(forKey: "text") as? String else { return nil }
    self.text = text
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(text as NSString, forKey: "text")
  }
}

/// A class with `NSCoding` only, for the not-secure-coding rule.
final class PlainNote: NSObject, NSCoding {
  let text: String

  init(text: String) {
    self.text = text
    super.init()
  }

  init?(coder: NSCoder) {
    text = (coder.decodeObject(forKey: "text") as? String) ?? ""
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(text as NSString, forKey: "text")
  }
}

/// A secure class with scalar fields of every width.
final class Scalars: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true
  let small: Int32
  let large: Int64
  let ratio: Double
  let scale: Float
  let flag: Bool

  init?(coder: NSCoder) {
    small = coder.decodeInt32(forKey: "small")
    large = coder.decodeInt64(forKey: "large")
    ratio = coder.decodeDouble(forKey: "ratio")
    scale = coder.decodeFloat(forKey: "scale")
    flag = coder.decodeBool(forKey: "flag")
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(small, forKey: "small")
    coder.encode(large, forKey: "large")
    coder.encode(ratio, forKey: "ratio")
    coder.encode(scale, forKey: "scale")
    coder.encode(flag, forKey: "flag")
  }
}

/// A secure class that reads a list of profiles and a tag set.
final class Team: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true
  let members: [ProfileKit.UserProfile]

  init?(coder: NSCoder) {
    guard let members = ProfileModel.decodeProfileList(from: coder, forKey: "members") else {
      return nil
    }
    self.members = members
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(members as NSArray, forKey: "members")
  }
}

enum TestModels {
  static let classes: [NSObject.Type] =
    ProfileModel.classes + [
      StrictHolder.self, SloppySecureNote.self, PlainNote.self, Scalars.self, Team.self,
      ErrorProbe.self, UnkeyedWriter.self, ByteReader.self,
    ]
}

/// What ``ErrorProbe`` saw after a nested decode failed.
final class ErrorProbeLog: @unchecked Sendable {
  static let shared = ErrorProbeLog()
  private let entries = Locked<[(errorSet: Bool, laterInteger: Int, policy: Int)]>([])

  func record(errorSet: Bool, laterInteger: Int, policy: Int) {
    entries.withLock { $0.append((errorSet, laterInteger, policy)) }
  }

  var last: (errorSet: Bool, laterInteger: Int, policy: Int)? {
    entries.withLock { $0.last }
  }
}

/// A secure class that records `error`, a later decode and the policy after a nested failure.
final class ErrorProbe: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true

  init?(coder: NSCoder) {
    _ = coder.decodeObject(of: [NSString.self], forKey: "bad")
    ErrorProbeLog.shared.record(
      errorSet: coder.error != nil, laterInteger: coder.decodeInteger(forKey: "number"),
      policy: coder.decodingFailurePolicy.rawValue)
    return nil
  }

  func encode(with coder: NSCoder) {}
}

/// A class that reads keyed fields but writes the pre-keyed way, to exercise the describer.
final class UnkeyedWriter: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true

  init?(coder: NSCoder) {
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(NSString(string: "unkeyed") as Any?)
    coder.encode(Data([1, 2]))
  }
}

/// A class that reads bytes and an unkeyed property list, to exercise the less common calls.
final class ByteReader: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true
  let bytes: [UInt8]

  init?(coder: NSCoder) {
    // Each Foundation's own bytes call: corelibs has no decodeBytes(forKey:returnedLength:),
    // Darwin no withDecodedUnsafeBytes(forKey:body:).
    #if canImport(Darwin)
      var length = 0
      let pointer = coder.decodeBytes(forKey: "blob", returnedLength: &length)
      bytes = pointer.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
    #else
      bytes = coder.withDecodedUnsafeBytes(forKey: "blob") { raw in raw.map { Array($0) } ?? [] }
    #endif
    // An unkeyed call every Foundation has (decodePropertyList() is macOS and corelibs only).
    if coder.containsValue(forKey: "unkeyed") { _ = coder.decodeData() }
    super.init()
  }

  func encode(with coder: NSCoder) {
    // What it read goes back, so the archive's blob is kept (conservation).
    bytes.withUnsafeBufferPointer {
      coder.encodeBytes($0.baseAddress, length: $0.count, forKey: "blob")
    }
  }
}
