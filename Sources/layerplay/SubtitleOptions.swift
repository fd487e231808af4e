import Foundation
import LayerMedia

extension Layerplay {
    /// What `--subtitles` names: a file, or the input's subtitle stream of that index (0 = the first).
    enum SubtitleChoice: Equatable {
        case file(String)
        case stream(Int)
    }

    /// A number is a stream; anything else (or a file of that name that exists) is a file.
    var subtitleChoice: SubtitleChoice? {
        guard let subtitles else { return nil }
        if !subtitles.isEmpty, subtitles.allSatisfy({ ("0"..."9").contains($0) }), !FileManager.default.fileExists(atPath: subtitles) {
            return .stream(Int(subtitles) ?? Int.max)
        }
        return .file(subtitles)
    }

    /// The `--subtitles` file, when it names one.
    var subtitleFile: String? {
        if case .file(let path)? = subtitleChoice { return path }
        return nil
    }

    /// A subtitle file beside the input with the input's name (`movie.srt` beside `movie.mp4`; .srt, .ass, .ssa,
    /// .vtt in that order), as mpv finds one.
    func subtitleFileBeside() -> String? {
        let stem = (input as NSString).deletingPathExtension
        guard !stem.isEmpty, !input.contains("://") else { return nil }
        return ["srt", "ass", "ssa", "vtt"].map { stem + "." + $0 }.first { FileManager.default.fileExists(atPath: $0) && $0 != input }
    }

    /// The layer that shows this run's subtitles, or nil when there is nothing to show.
    ///
    /// In a window: the `--subtitles` file (first) and the input's subtitle streams, `t` cycling through them;
    /// it starts on what `--subtitles` names, else on the first, or on none with `--no-subtitles`. In a movie or a
    /// still: only what `--subtitles` names, burnt in (the input's streams are carried as streams instead).
    /// The card gives the layer its player (`CardTree`), so that cues follow the video's clock.
    func subtitleLayer(for asset: MediaAsset, inWindow: Bool) throws -> SubtitleLayer? {
        var tracks: [(track: SubtitleTrack, name: String)] = []
        var selected: Int? = noSubtitles ? nil : 0
        let choice = subtitleChoice
        if case .file(let file)? = choice {
            do { tracks.append((try SubtitleReader.track(file: file), "'\(file)'")) } catch { throw RunError("\(error)") }
        } else if inWindow, choice == nil, let beside = subtitleFileBeside() {
            // As mpv: a subtitle file named as the video, beside it, shows first; one that does not read is passed by.
            do { tracks.append((try SubtitleReader.track(file: beside), "'\(beside)'")) } catch {
                StandardError.writeLine("layerplay: warning: not showing '\(beside)': \(error)")
            }
        }
        var wanted: Int?
        if case .stream(let index)? = choice { wanted = index }
        if inWindow || wanted != nil {
            var embedded: [SubtitleTrack] = []
            if !asset.isStill {
                do { embedded = try SubtitleReader.tracks(in: input) } catch { throw RunError("\(error)") }
            }
            if let index = wanted, index >= embedded.count {
                throw RunError("'\(input)' has no subtitle stream \(index) (--subtitles STREAM counts its \(embedded.count) text subtitle stream\(embedded.count == 1 ? "" : "s") from 0)")
            }
            for (i, track) in embedded.enumerated() where inWindow || i == wanted {
                tracks.append((track, "subtitle stream \(i) of '\(input)'"))
            }
            if inWindow, let index = wanted { selected = index }
        }
        guard !tracks.isEmpty else { return nil }
        for (track, name) in tracks where track.skippedCues > 0 {
            StandardError.writeLine("layerplay: warning: skipped \(track.skippedCues) malformed cue\(track.skippedCues == 1 ? "" : "s") of \(name)")
        }
        return SubtitleLayer(tracks: tracks.map(\.track), selected: selected)
    }
}
