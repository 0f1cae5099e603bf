import Decoding

// Decoding and Manifest each name their own `DecodePath` and `RejectionCategory`:
// Decoding's are what a decoder did, Manifest's what a manifest may expect. In
// this module the unqualified names mean Decoding's.
typealias DecodePath = Decoding.DecodePath
typealias RejectionCategory = Decoding.RejectionCategory
