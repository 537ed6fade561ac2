// The shapes of RunBeat's JSON answers as the pages read them (openapi.yaml's RunBeat*
// schemas), for the type check only: the modules import them with `import("./runbeat-types.js")`
// in JSDoc, so this file is never loaded by a page.

/** @typedef {{zone: number, low: number, high: number}} Zone */

/**
 * A phase's music (RunBeatMusicChoice).
 * @typedef {{mode: string, track_ids: string[], spotify_playlist_id?: string | null, spotify_playlist_name?: string | null}} MusicChoice
 */

/**
 * The runner's profile (RunBeatProfile).
 * @typedef {{age: number, resting: number, max?: number | null, formula: string, maximum: number, zones: Zone[], manual_zones: boolean, bound_ranges: number[][], music: Record<string, MusicChoice>, set_up?: boolean}} Profile
 */

/** @typedef {{id: string, name: string, total_seconds?: number | null}} Plan */

/** @typedef {{phase: number, seconds: number, average_heart_rate?: number | null, low: number, high: number, in_target_seconds: number, hit: boolean}} Interval */

/**
 * A workout's summary (RunBeatSummary).
 * @typedef {{seconds: number, samples: number, average_heart_rate?: number | null, peak_heart_rate?: number | null, zone_seconds: number[], below_zones_seconds: number, above_zones_seconds?: number, no_heart_rate_seconds?: number, dropped_samples?: number, intervals: Interval[], intervals_hit: number}} Summary
 */

/** @typedef {{t: number, bpm: number}} Sample */

/**
 * A workout (RunBeatWorkout); its phases are the page's timeline's.
 * @typedef {{id: string, name: string, status: string, source: string, started_at: number, seconds: number, zones: Zone[], phases: import("./runbeat-timeline.js").Phase[], summary?: Summary | null, samples: number, acked_seq?: number, damage?: string | null, existing?: boolean, has_positions?: boolean}} Workout
 */

/**
 * A workout with its heart rate (RunBeatWorkoutDetail).
 * @typedef {Workout & {heart_rate: Sample[]}} WorkoutDetail
 */

/**
 * A heart-rate file read for a replay (RunBeatRecording).
 * @typedef {{format: string, seconds: number, heart_rate: Sample[], damage?: string | null}} Recording
 */

/**
 * A song a phase plays (RunBeatMusicTrack).
 * @typedef {{id: string, title: string, artist: string, tempo?: number | null}} MusicTrack
 */

/**
 * A phase's songs (RunBeatMusicList).
 * @typedef {{mode: string, tracks: MusicTrack[], spotify_playlist_name?: string | null}} MusicList
 */

export {};
