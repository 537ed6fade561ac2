// The coach's page: the class view (runbeat-coach-view.js) on a page of its own.
import { bindLogout } from "/static/js/api.js";
import { showRunningWorkout } from "./runbeat-running-bar.js";
import { mountCoach } from "./runbeat-coach-view.js";

export { STALE_SECONDS, lastSeen } from "./runbeat-coach-view.js";

bindLogout();
mountCoach();
showRunningWorkout();
