// The invite link's page: joins the session, then opens it.
import { api, bindLogout } from "/static/js/api.js";

bindLogout();
const main = document.getElementById("main");
document.getElementById("join").addEventListener("click", async () => {
  try {
    const session = await api("/api/v1/back2back/sessions/join", { method: "POST", body: { invite_token: main.dataset.token } });
    location.assign(`/back2back/${session.id}`);
  } catch (e) {
    document.getElementById("join-error").textContent = e.status === 404 ? "This invite link does not open any session." : e.message;
  }
});
