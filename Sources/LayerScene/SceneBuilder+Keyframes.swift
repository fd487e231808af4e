import Foundation
import LayerGraphics
import LayerKit

/// Keyframe animations: Core Animation's `values`/`keyTimes` form, or the `keys` form of SCENES.md §3
/// (`t`, `v`, `ease` for the segment that starts at the key, `hold` compiled to a repeated key).
extension SceneBuilder {
    static let keyKeys: Set<String> = ["t", "v", "ease", "hold"]

    mutating func buildKeyframe(_ json: JSONValue, path: String, keyPath: String, kind: ValueKind, superSize: Size, rotating: Bool) -> KeyframeAnimation? {
        let a = KeyframeAnimation(keyPath: keyPath)
        if let (v, s) = field(json, "calculationMode", path), let m = ctx.choice(v, s, CalculationMode.allCases.map(\.rawValue)) {
            a.calculationMode = CalculationMode(rawValue: m)!
        }
        if json["keys"] != nil {
            for other in ["values", "keyTimes", "timingFunctions", "path"] where json[other] != nil {
                ctx.error(Site(json: json[other]!, path: "\(path).\(other)"), "\"keys\" already gives the values and times: remove \"\(other)\"")
            }
            return buildKeys(a, json, path: path, kind: kind, superSize: superSize, rotating: rotating) ? a : nil
        }
        if let (v, s) = field(json, "path", path) {
            guard kind == .point else { ctx.error(s, "a path animates a point; \"\(keyPath)\" is not a point"); return nil }
            a.path = ctx.path(v, s)
        }
        var count = 0
        if let (v, s) = field(json, "values", path) {
            guard case .list(let items) = v else { ctx.expected("a list of values", s, got: v); return nil }
            var values: [any AnimatableValue] = []
            for (i, item) in items.enumerated() {
                guard let x = animationValue(item, Site(json: s.json.elements?[safe: i] ?? s.json, path: "\(s.path)[\(i)]"), kind: kind,
                                             superSize: superSize, rotationFunction: rotating) else { return nil }
                values.append(x)
            }
            a.values = values
            count = values.count
        } else if a.path == nil {
            ctx.error(Site(json: json, path: path), "a keyframe animation needs \"values\", \"keys\" or \"path\"")
            return nil
        }
        if let (v, s) = field(json, "keyTimes", path) {
            if a.calculationMode == .paced || a.calculationMode == .cubicPaced {
                ctx.warnings.append(SceneDiagnostic(file: ctx.file, position: s.position, path: s.path, message: "ignored with calculationMode \(a.calculationMode.rawValue)"))
            }
            let discrete = a.calculationMode == .discrete
            guard let times = ctx.numbers(v, s, count: 0...4096, what: "a list of numbers") else { return nil }
            let rising = zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }
            // One per value; discrete also takes n + 1 (value i holds on [k_i, k_i+1), KeyframeMath).
            let countOK = times.count == count || (discrete && times.count == count + 1)
            guard a.path != nil || (countOK && rising && times.first == 0 && (times.last == 1 || discrete)) else {
                let got = countOK ? "[\(times.map(formatNumber).joined(separator: ", "))]" : "\(times.count)"
                ctx.error(s, "expected \(count) numbers (one per value) rising from 0 to 1, got \(got)")
                return nil
            }
            a.keyTimes = times
        }
        if let (v, s) = field(json, "timingFunctions", path) {
            guard case .list(let items) = v else { ctx.expected("a list of timing functions", s, got: v); return nil }
            guard items.count == max(count - 1, 0) || a.path != nil else {
                ctx.error(s, "expected \(max(count - 1, 0)) timing functions (one per segment), got \(items.count)"); return nil
            }
            var fs: [TimingFunction] = []
            for (i, item) in items.enumerated() {
                guard let f = ctx.timingFunction(item, Site(json: s.json, path: "\(s.path)[\(i)]")) else { return nil }
                fs.append(f)
            }
            a.timingFunctions = fs
        }
        for key in ["tensionValues", "continuityValues", "biasValues"] {
            guard let (v, s) = field(json, key, path), let l = ctx.numbers(v, s, count: 0...4096, what: "a list of numbers") else { continue }
            guard l.count == count else { ctx.error(s, "expected \(count) numbers (one per value), got \(l.count)"); continue }
            switch key {
            case "tensionValues": a.tensionValues = l
            case "continuityValues": a.continuityValues = l
            default: a.biasValues = l
            }
        }
        if let (v, s) = field(json, "rotationMode", path), let m = ctx.choice(v, s, ["rotateAuto", "rotateAutoReverse"]) {
            a.rotationMode = RotationMode(rawValue: m)
        }
        return a
    }

    /// `keys: [{t, v, ease, hold}]`; `duration` defaults to the last `t`.
    mutating func buildKeys(_ a: KeyframeAnimation, _ json: JSONValue, path: String, kind: ValueKind, superSize: Size, rotating: Bool) -> Bool {
        let keysPath = "\(path).keys"
        guard let list = json["keys"]?.elements, !list.isEmpty else {
            ctx.error(Site(json: json["keys"]!, path: keysPath), "expected a list of keys [{\"t\": …, \"v\": …}], got \(json["keys"]!.shortDescription)")
            return false
        }
        var times: [Double] = [], values: [any AnimatableValue] = [], eases: [TimingFunction] = [], holds: [Bool] = []
        for (i, k) in list.enumerated() {
            let kp = "\(keysPath)[\(i)]"
            guard let members = k.members else { ctx.error(Site(json: k, path: kp), "expected a key {\"t\": …, \"v\": …}, got \(k.shortDescription)"); return false }
            ctx.checkKeys(members, known: Self.keyKeys, path: kp)
            guard let (tv, ts) = field(k, "t", kp), let t = ctx.time(tv, ts, min: 0) else {
                if k["t"] == nil { ctx.error(Site(json: k, path: kp), "missing \"t\"") }
                return false
            }
            if let last = times.last, t < last { ctx.error(ts, "expected a time ≥ the previous key's \(formatNumber(last)), got \(formatNumber(t))"); return false }
            guard let (vv, vs) = field(k, "v", kp), let v = animationValue(vv, vs, kind: kind, superSize: superSize, rotationFunction: rotating) else {
                if k["v"] == nil { ctx.error(Site(json: k, path: kp), "missing \"v\"") }
                return false
            }
            var ease = TimingFunction(name: .linear)
            if let (ev, es) = field(k, "ease", kp) { guard let f = ctx.timingFunction(ev, es) else { return false }; ease = f }
            var hold = false
            if let (hv, hs) = field(k, "hold", kp) { hold = ctx.bool(hv, hs) ?? false }
            times.append(t); values.append(v); eases.append(ease); holds.append(hold)
        }
        var duration = times.last!
        if let (v, s) = field(json, "duration", path), let d = ctx.time(v, s, min: 0) {
            guard d >= duration else { ctx.error(s, "expected a duration ≥ the last key's t (\(formatNumber(duration))), got \(formatNumber(d))"); return false }
            duration = d
        }
        guard duration > 0 else { ctx.error(Site(json: json["keys"]!, path: keysPath), "the keys need times after 0 (or a duration)"); return false }
        // A held key stays until the next key's time, then jumps: a copy of it at that time.
        var outTimes: [Double] = [], outValues: [any AnimatableValue] = [], outEases: [TimingFunction] = []
        for i in times.indices {
            outTimes.append(times[i] / duration); outValues.append(values[i]); outEases.append(eases[i])
            if holds[i], i + 1 < times.count {
                outTimes.append(times[i + 1] / duration); outValues.append(values[i]); outEases.append(TimingFunction(name: .linear))
            }
        }
        if outTimes.first! > 0 { outTimes.insert(0, at: 0); outValues.insert(outValues[0], at: 0); outEases.insert(TimingFunction(name: .linear), at: 0) }
        if outTimes.last! < 1 { outTimes.append(1); outValues.append(outValues.last!); outEases.append(TimingFunction(name: .linear)) }
        a.keyTimes = outTimes
        a.values = outValues
        a.timingFunctions = Array(outEases.dropLast())
        a.duration = duration
        return true
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
