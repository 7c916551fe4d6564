import { render } from "preact";
import { App } from "./app";
import { inviteOutOfQuery } from "./router";
import "./styles.css";

const moved = inviteOutOfQuery(location);
if (moved) history.replaceState(null, "", moved);

const root = document.getElementById("app");
if (root) render(<App />, root);
