import Foundation

/// A stand-in for Core Location's `CLLocation`, read from the `kCLLocationCodingKey…` keys:
/// `CoordinateLatitude`, `CoordinateLongitude`, `Altitude`, `HorizontalAccuracy`,
/// `VerticalAccuracy`, `Speed`, `SpeedAccuracy`, `Course`, `CourseAccuracy` and `Timestamp`
/// (seconds since 2001-01-01).
///
/// ```swift
/// let location = coder.decodeObject(of: CLLocationStandIn.self, forKey: "place")
/// location?.latitude  // 51.5
/// ```
package final class CLLocationStandIn: NSObject, PlatformStandIn {
  /// `CLLocation`.
  package static let platformClassName = "CLLocation"
  /// Whether the class adopts secure coding: `true`, as CLLocation does.
  package static var supportsSecureCoding: Bool { true }

  /// The key prefix Core Location archives with.
  static let prefix = "kCLLocationCodingKey"

  /// The latitude, in degrees.
  package let latitude: Double
  /// The longitude, in degrees.
  package let longitude: Double
  /// The other archived values, by the key's suffix (`Altitude`, `Speed`, …).
  package let measurements: [(name: String, value: Double)]
  /// When the location was determined.
  package let timestamp: Date?

  /// The archived numbers other than the coordinate and timestamp, in Core Location's order.
  static let measurementNames = [
    "HorizontalAccuracy", "Altitude", "VerticalAccuracy", "Speed", "SpeedAccuracy", "Course",
    "CourseAccuracy",
  ]

  /// Reads Core Location's archived form.
  ///
  /// Core Location's invalid coordinate, (-180, -180), is accepted.
  ///
  /// - Parameter coder: The unarchiver.
  package required init?(coder: NSCoder) {
    let reader = StandInReader(coder: coder, className: Self.platformClassName)
    let latitudeKey = Self.prefix + "CoordinateLatitude"
    let longitudeKey = Self.prefix + "CoordinateLongitude"
    let latitude = reader.double(latitudeKey, required: true, in: -180...180)
    let longitude = reader.double(longitudeKey, required: true, in: -180...180)
    var measurements: [(name: String, value: Double)] = []
    for name in Self.measurementNames {
      if let value = reader.double(Self.prefix + name) { measurements.append((name, value)) }
    }
    let seconds = reader.double(Self.prefix + "Timestamp")
    guard let latitude, let longitude, !reader.failed else { return nil }
    guard abs(latitude) <= 90 || (latitude == -180 && longitude == -180) else {
      reader.fail(latitudeKey, .limitExceeded, "latitude \(latitude) is outside -90...90")
      return nil
    }
    self.latitude = latitude
    self.longitude = longitude
    self.measurements = measurements
    self.timestamp = seconds.map { Date(timeIntervalSinceReferenceDate: $0) }
    super.init()
  }

  /// Writes Core Location's archived form.
  package func encode(with coder: NSCoder) {
    coder.encode(latitude, forKey: Self.prefix + "CoordinateLatitude")
    coder.encode(longitude, forKey: Self.prefix + "CoordinateLongitude")
    for (name, value) in measurements { coder.encode(value, forKey: Self.prefix + name) }
    if let timestamp {
      coder.encode(timestamp.timeIntervalSinceReferenceDate, forKey: Self.prefix + "Timestamp")
    }
  }

  /// `latitude`, `longitude`, the archived measurements in lower camel case (`altitude`,
  /// `horizontalAccuracy`, …) and `timestamp`.
  package var standInFields: [(key: String, value: Any?)] {
    var fields: [(key: String, value: Any?)] = [("latitude", latitude), ("longitude", longitude)]
    for (name, value) in measurements {
      fields.append((name.prefix(1).lowercased() + name.dropFirst(), value))
    }
    if let timestamp { fields.append(("timestamp", timestamp)) }
    return fields
  }
}
