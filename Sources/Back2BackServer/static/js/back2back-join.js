// The invite link's page: joins the session, then opens it.
import { api, APIError, bindLogout, byId, errorMessage } from "/static/js/api.js";

bindLogout();
const main = byId("main");
byId("join").addEventListener("click", async () => {
  try {
    const session = await api("/api/v1/back2back/sessions/join", { method: "POST", body: { invite_token: main.dataset.token } });
    location.assign(`/back2back/${session.id}`);
  } catch (e) {
    byId("join-error").textContent = e instanceof APIError && e.status === 404 ? "This invite link does not open any session." : errorMessage(e);
  }
});
