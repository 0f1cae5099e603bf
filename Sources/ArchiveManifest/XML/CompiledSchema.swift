import ArchiveFormat
internal import CHarnessXMLBridge

/// An XSD compiled by libxml2, ready to validate documents.
///
/// The built-in schema is compiled once per process and shared: libxml2 only
/// reads a compiled schema while validating, and each validation uses a
/// validation context of its own. A schema file is compiled for each use, so an
/// edited file is always read as it is now.
final class CompiledSchema: @unchecked Sendable {
  /// Why a schema could not be compiled, as the diagnostics to report.
  struct Failure: Error {
    var diagnostics: [ManifestDiagnostic]
  }

  /// The compiled schema; owned, freed on deinit.
  let handle: OpaquePointer

  private init(handle: OpaquePointer) { self.handle = handle }

  deinit { ahx_schema_free(handle) }

  /// Returns the compiled schema for `source`.
  static func load(_ source: ManifestSchema.Source) -> Result<CompiledSchema, Failure> {
    switch source {
    case .builtIn: return builtIn
    case .file(let path): return compile(source) { ahx_schema_compile_file(path, $0, $1) }
    }
  }

  /// The built-in schema, compiled on first use.
  private static let builtIn: Result<CompiledSchema, Failure> = compile(.builtIn) {
    handler, context in
    let bytes = Array(ManifestSchema.builtInText.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { characters in
        ahx_schema_compile_memory(
          characters.baseAddress, Int32(characters.count), handler, context)
      }
    }
  }

  /// Compiles with `body`, collecting libxml2's errors as diagnostics that name the schema.
  private static func compile(
    _ source: ManifestSchema.Source,
    _ body: (ahx_error_handler, UnsafeMutableRawPointer) -> OpaquePointer?
  ) -> Result<CompiledSchema, Failure> {
    let collector = XMLErrorCollector()
    let handle = withExtendedLifetime(collector) {
      body(collectXMLError, Unmanaged.passUnretained(collector).toOpaque())
    }
    if let handle { return .success(CompiledSchema(handle: handle)) }
    let name = source.description
    var diagnostics = collector.errors.map {
      var diagnostic = $0.diagnostic(file: name, nodes: [:])
      diagnostic.category = .schemaFile
      return diagnostic
    }
    if diagnostics.isEmpty {
      diagnostics.append(
        ManifestDiagnostic(
          .error, .schemaFile, at: Place(file: name, line: 0, column: 0),
          "cannot load the XSD"))
    }
    return .failure(Failure(diagnostics: diagnostics))
  }
}
