/// An option that takes a value (`--format json`, `--format=json`), declared once with its type.
///
/// The declaration holds everything about the option: its name, its value's
/// type and conversion, its default, whether it is required, and its help.
/// The parser and help read the declaration; a command reads the typed value
/// with `arguments[option]`, so no default or check is repeated at the call
/// site:
///
/// ```swift
/// static let batchSize = Option.defaulted(
///   "batch-size", valueName: "N", help: "Records per batch.", default: 512,
///   convert: ArgumentConversion.integer(in: 1...100_000))
/// ...
/// let size = arguments[batchSize]  // an Int from 1 to 100000, 512 when not given
/// ```
///
/// ## Topics
///
/// ### Declaring
/// - ``required(_:short:valueName:help:)``
/// - ``defaulted(_:short:valueName:help:default:convert:)``
/// - ``defaulted(_:short:valueName:help:default:defaultDescription:convert:)``
/// - ``optional(_:short:valueName:help:defaultDescription:standalone:)``
/// - ``optional(_:short:valueName:help:defaultDescription:convert:)``
/// - ``repeating(_:short:valueName:help:)``
/// - ``repeating(_:short:valueName:help:convert:)``
struct Option<Value: Sendable>: CommandOption {
  /// What parsing and help read.
  let declaration: OptionDeclaration
  /// The typed value from the converted values given, in order; nil only for a required option not given.
  private let resolve: @Sendable ([any Sendable]) -> Value?

  private init(
    _ declaration: OptionDeclaration, resolve: @escaping @Sendable ([any Sendable]) -> Value?
  ) {
    self.declaration = declaration
    self.resolve = resolve
  }

  /// The long name without dashes.
  var name: String { declaration.name }

  /// The option's value from the converted values given for it, in the order given.
  func value(from given: [any Sendable]) -> Value? {
    resolve(given)
  }
}

extension Option where Value: ArgumentValue {
  /// An option that must be given once; `arguments[option]` is its value.
  static func required(
    _ name: String, short: Character? = nil, valueName: String, help: String
  ) -> Option {
    let declaration = OptionDeclaration(
      name: name, short: short, valueName: valueName, help: help,
      allowedValues: Value.allowedValues, isRequired: true,
      convert: { text throws(ArgumentValueError) in try Value(argument: text) })
    return Option(declaration) { given in given.last as? Value }
  }

  /// An option that may be given once; `arguments[option]` is its value, or `default` when not given.
  ///
  /// Help shows the default as `(default: …)`, and the allowed values when
  /// the type has a closed set and no `convert` is given. `convert` adds
  /// further checks to the type's own conversion, such as a range.
  static func defaulted(
    _ name: String, short: Character? = nil, valueName: String, help: String, default: Value,
    convert: ArgumentConverter<Value>? = nil
  ) -> Option {
    // `if let`, not `convert == nil`: comparing an optional typed-throws function needs its type's
    // runtime metadata, which Apple platforms have only from macOS 15 and iOS 18.
    let convertValue: ArgumentConverter<Value>
    let allowedValues: [String]?
    if let convert {
      convertValue = convert
      allowedValues = nil
    } else {
      convertValue = { text throws(ArgumentValueError) in try Value(argument: text) }
      allowedValues = Value.allowedValues
    }
    let declaration = OptionDeclaration(
      name: name, short: short, valueName: valueName, help: help,
      allowedValues: allowedValues,
      defaultDescription: `default`.argumentText,
      convert: { text throws(ArgumentValueError) in try convertValue(text) })
    return Option(declaration) { given in given.last as? Value ?? `default` }
  }
}

extension Option {
  /// An option that may be given once, with a conversion of its own; `arguments[option]` is its value or `default`.
  ///
  /// Help shows `defaultDescription` as the default, or no default when it is nil.
  static func defaulted(
    _ name: String, short: Character? = nil, valueName: String, help: String, default: Value,
    defaultDescription: String?, convert: @escaping ArgumentConverter<Value>
  ) -> Option {
    let declaration = OptionDeclaration(
      name: name, short: short, valueName: valueName, help: help,
      defaultDescription: defaultDescription,
      convert: { text throws(ArgumentValueError) in try convert(text) })
    return Option(declaration) { given in given.last as? Value ?? `default` }
  }

  /// An option that may be given once; `arguments[option]` is its value, or nil when not given.
  ///
  /// Help shows `defaultDescription` as the default: what happens without the
  /// option, such as `the built-in schema`. A `standalone` option is a command
  /// line of its own, as `migrate --rollback JOURNAL` is: given, no other
  /// option, flag or argument may be but the `companions` named, and no other is required.
  static func optional<Wrapped: ArgumentValue>(
    _ name: String, short: Character? = nil, valueName: String, help: String,
    defaultDescription: String? = nil, standalone: Bool = false, companions: [String] = []
  ) -> Option where Value == Wrapped? {
    let declaration = OptionDeclaration(
      name: name, short: short, valueName: valueName, help: help,
      allowedValues: Wrapped.allowedValues, defaultDescription: defaultDescription,
      isStandalone: standalone, standaloneCompanions: companions,
      convert: { text throws(ArgumentValueError) in try Wrapped(argument: text) })
    return Option(declaration) { given in .some(given.last as? Wrapped) }
  }

  /// An option that may be given once, with a conversion of its own; `arguments[option]` is its value or nil.
  ///
  /// Help shows `defaultDescription` as the default: what happens without the option.
  static func optional<Wrapped: Sendable>(
    _ name: String, short: Character? = nil, valueName: String, help: String,
    defaultDescription: String? = nil, convert: @escaping ArgumentConverter<Wrapped>
  ) -> Option where Value == Wrapped? {
    let declaration = OptionDeclaration(
      name: name, short: short, valueName: valueName, help: help,
      defaultDescription: defaultDescription,
      convert: { text throws(ArgumentValueError) in try convert(text) })
    return Option(declaration) { given in .some(given.last as? Wrapped) }
  }

  /// An option that may be given any number of times; `arguments[option]` is every value, in order.
  static func repeating<Element: ArgumentValue>(
    _ name: String, short: Character? = nil, valueName: String, help: String
  ) -> Option where Value == [Element] {
    let declaration = OptionDeclaration(
      name: name, short: short, valueName: valueName, help: help,
      allowedValues: Element.allowedValues, isRepeating: true,
      convert: { text throws(ArgumentValueError) in try Element(argument: text) })
    return Option(declaration) { given in given.compactMap { $0 as? Element } }
  }

  /// An option that may be given any number of times, with a conversion of its own.
  static func repeating<Element: Sendable>(
    _ name: String, short: Character? = nil, valueName: String, help: String,
    convert: @escaping ArgumentConverter<Element>
  ) -> Option where Value == [Element] {
    let declaration = OptionDeclaration(
      name: name, short: short, valueName: valueName, help: help, isRepeating: true,
      convert: { text throws(ArgumentValueError) in try convert(text) })
    return Option(declaration) { given in given.compactMap { $0 as? Element } }
  }
}
