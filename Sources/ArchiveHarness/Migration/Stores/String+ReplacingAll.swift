extension String {
  /// The string with every occurrence of `target` replaced (no Foundation).
  func replacingAll(_ target: Character, with replacement: String) -> String {
    guard contains(target) else { return self }
    var result = ""
    result.reserveCapacity(count + 8)
    for character in self {
      if character == target {
        result += replacement
      } else {
        result.append(character)
      }
    }
    return result
  }
}
