// How Foundation's unarchiver reads an archive beyond its objects: the `$top` keys a read
// takes when given none, and the bookkeeping class its archiver writes for C arrays.
extension KeyedArchive {
  /// The class Foundation's archiver writes a C array's elements in (inside a generic NSValue
  /// or NSAffineTransform): its unarchiver reads it for the object that refers to it, and no app
  /// class stands for it, so it is never allowed, mapped or reported unknown.
  package static let oldStyleArrayClassName = "_NSKeyedCoderOldStyleArray"

  /// The keys a decode with no keys given reads: `root` when the archive has it, otherwise
  /// every `$top` key, in natural order (`$2` before `$10`), as an app reading the `$0`, `$1`,
  /// … keys of unkeyed encoding takes them.
  package var defaultReadKeys: [String] {
    if top["root"] != nil { return ["root"] }
    return top.keys.sorted(by: Self.naturalOrder)
  }

  /// Whether one key sorts before another with runs of digits compared as numbers.
  package static func naturalOrder(_ left: String, _ right: String) -> Bool {
    var leftIndex = left.unicodeScalars.startIndex
    var rightIndex = right.unicodeScalars.startIndex
    let leftScalars = left.unicodeScalars
    let rightScalars = right.unicodeScalars
    while leftIndex < leftScalars.endIndex, rightIndex < rightScalars.endIndex {
      let leftDigits = digitRun(leftScalars, from: &leftIndex)
      let rightDigits = digitRun(rightScalars, from: &rightIndex)
      if !leftDigits.isEmpty, !rightDigits.isEmpty {
        let leftTrimmed = leftDigits.drop { $0 == "0" }
        let rightTrimmed = rightDigits.drop { $0 == "0" }
        if leftTrimmed.count != rightTrimmed.count {
          return leftTrimmed.count < rightTrimmed.count
        }
        if leftTrimmed != rightTrimmed { return leftTrimmed < rightTrimmed }
        continue
      }
      if !leftDigits.isEmpty || !rightDigits.isEmpty {
        return !leftDigits.isEmpty
      }
      let leftScalar = leftScalars[leftIndex]
      let rightScalar = rightScalars[rightIndex]
      if leftScalar != rightScalar { return leftScalar.value < rightScalar.value }
      leftIndex = leftScalars.index(after: leftIndex)
      rightIndex = rightScalars.index(after: rightIndex)
    }
    return leftIndex == leftScalars.endIndex && rightIndex != rightScalars.endIndex
  }

  private static func digitRun(
    _ scalars: String.UnicodeScalarView, from index: inout String.UnicodeScalarView.Index
  ) -> String {
    var digits = ""
    while index < scalars.endIndex, ("0"..."9").contains(scalars[index]) {
      digits.unicodeScalars.append(scalars[index])
      index = scalars.index(after: index)
    }
    return digits
  }
}
