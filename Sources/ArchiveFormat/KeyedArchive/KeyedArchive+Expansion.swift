extension KeyedArchive {
  /// The number of values a tree-shaped copy of the graph below a `$top` entry would hold, capped.
  ///
  /// Shared objects count once per reference, as they do when a decoder hands
  /// the graph to code that walks it as values (Foundation on Linux bridges
  /// nested collections to Swift values, losing their sharing). Computed in
  /// one pass over the objects, iteratively, whatever the graph's depth; a
  /// reference back into an object being counted (a cycle) counts as one.
  ///
  /// - Parameters:
  ///   - topKey: The `$top` entry to start from.
  ///   - limit: The cap; the result is at most `limit + 1`.
  /// - Returns: The expanded size, or `limit + 1` when it is larger than `limit`.
  public func expandedSize(from topKey: String = "root", limit: Int) -> Int {
    guard let start = top[topKey] else { return 0 }
    var sizes = [Int](repeating: -1, count: objects.count)  // -1 unvisited, -2 in progress
    func cap(_ value: Int) -> Int { min(value, limit + 1) }

    /// The UIDs a value holds directly (inline arrays and dictionaries included).
    func references(_ value: PropertyListValue, into list: inout [Int]) {
      switch value {
      case .uid(let uid): list.append(Int(uid))
      case .array(let elements): for element in elements { references(element, into: &list) }
      case .dictionary(let dictionary):
        for entry in dictionary.entries { references(entry.value, into: &list) }
      default: break
      }
    }

    func children(of index: Int) -> [Int] {
      guard case .instance(let instance) = objects[index] else { return [] }
      var list: [Int] = []
      for entry in instance.fields.entries { references(entry.value, into: &list) }
      return list
    }

    var roots: [Int] = []
    references(start, into: &roots)
    // Post-order walk with an explicit stack: (object, its children, next child position).
    var stack: [(index: Int, children: [Int], next: Int, total: Int)] = []
    var total = 1
    for root in roots where root < objects.count {
      if sizes[root] < 0 {
        sizes[root] = -2
        stack.append((root, children(of: root), 0, 1))
        while var frame = stack.popLast() {
          if frame.next < frame.children.count {
            let child = frame.children[frame.next]
            frame.next += 1
            if child >= objects.count || sizes[child] == -2 {
              frame.total = cap(frame.total + 1)
              stack.append(frame)
            } else if sizes[child] >= 0 {
              frame.total = cap(frame.total + sizes[child])
              stack.append(frame)
            } else {
              stack.append(frame)
              sizes[child] = -2
              stack.append((child, children(of: child), 0, 1))
            }
          } else {
            sizes[frame.index] = frame.total
            if var parent = stack.popLast() {
              parent.total = cap(parent.total + frame.total)
              stack.append(parent)
            }
          }
        }
      }
      total = cap(total + max(sizes[root], 1))
    }
    return total
  }
}
