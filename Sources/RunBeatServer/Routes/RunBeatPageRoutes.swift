import Hummingbird
import JukePlatform

/// RunBeat's pages: the trainer (set-up, the run, the summary), the history, a workout, and
/// a coach's class.
struct RunBeatPageRoutes {
    func register(on router: Router<JukeRequestContext>) {
        router.get("/runbeat") { _, _ in
            guard let user = CurrentRequest.user else { return WebResponse.signIn(then: "/runbeat") }
            return WebResponse.html(RunBeatPages.trainer(user: user))
        }
        router.get("/runbeat/history") { _, _ in
            guard let user = CurrentRequest.user else { return WebResponse.signIn(then: "/runbeat/history") }
            return WebResponse.html(RunBeatPages.history(user: user))
        }
        router.get("/runbeat/workouts/:workout_id") { _, context in
            let id = context.parameters.get("workout_id") ?? ""
            guard let user = CurrentRequest.user else { return WebResponse.signIn(then: "/runbeat/history") }
            return WebResponse.html(RunBeatPages.workout(user: user, id: id))
        }
        router.get("/runbeat/coach") { _, _ in
            guard let user = CurrentRequest.user else { return WebResponse.signIn(then: "/runbeat/coach") }
            return WebResponse.html(RunBeatPages.coach(user: user))
        }
    }
}
