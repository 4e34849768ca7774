import KithKit

// The SwiftNIO live transport is being written (issue 3); until it lands, programs on Linux sync by
// polling on the engine's timer.
