extension StoreSurvey {
  /// Surveys a Keychain snapshot: one place per item, named by its key path
  /// (`genericPassword."com.example.auth".alice`), as `migrate` names the item's record.
  func surveyKeychainSnapshot(into census: SurveyCensus) throws(MigrationError) {
    let store = try KeychainSnapshotStore(
      path: path, maximumFileSize: limits.propertyList.maximumInputSize)
    for item in store.snapshot.items {
      let id = RecordID.propertyListValue(file: path, keyPath: item.keyPath)
      let place = census.place(.keyPath(item.keyPath.description))
      census.count(item.data, at: place, isBlob: true) { .file(id.description) }
    }
  }
}
