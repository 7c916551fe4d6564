import { describe, expect, it } from "vitest";
import { inviteOutOfQuery, parseRoute } from "./router";

const loc = (pathname: string, search = "", hash = "") => ({ pathname, search, hash });

describe("parseRoute", () => {
  it("opens a room from the server's invite link", () => {
    expect(parseRoute(loc("/r/q3Xk2mV0aQ", "", "#invite=hT9-x_"))).toEqual({ name: "room", roomId: "q3Xk2mV0aQ", invite: "hT9-x_" });
    expect(parseRoute(loc("/r/abc", "?invite=zz"))).toEqual({ name: "room", roomId: "abc", invite: "zz" });
    expect(parseRoute(loc("/r/abc/"))).toEqual({ name: "room", roomId: "abc", invite: null });
    expect(parseRoute(loc("/", "", "#/r/abc"))).toEqual({ name: "room", roomId: "abc", invite: null });
  });

  it("knows the other screens", () => {
    expect(parseRoute(loc("/"))).toEqual({ name: "home" });
    expect(parseRoute(loc("/rules"))).toEqual({ name: "rules", game: null });
    expect(parseRoute(loc("/rules/dots"))).toEqual({ name: "rules", game: "dots" });
    expect(parseRoute(loc("/settings"))).toEqual({ name: "settings" });
    expect(parseRoute(loc("/games"))).toEqual({ name: "games" });
    expect(parseRoute(loc("/g/q3Xk2mV0aQ-2", "", "#12"))).toEqual({ name: "review", gameId: "q3Xk2mV0aQ-2" });
    expect(parseRoute(loc("/review"))).toEqual({ name: "review", gameId: null });
    expect(parseRoute(loc("/nope"))).toEqual({ name: "notfound" });
  });
});

describe("inviteOutOfQuery", () => {
  it("moves an invite code out of the query string, after the #", () => {
    expect(inviteOutOfQuery(loc("/r/abc", "?invite=zz"))).toBe("/r/abc#invite=zz");
    expect(inviteOutOfQuery(loc("/r/abc", "?lang=cs&invite=zz"))).toBe("/r/abc?lang=cs#invite=zz");
    expect(inviteOutOfQuery(loc("/r/abc", "?invite=zz", "#invite=yy"))).toBe("/r/abc#invite=yy");
    expect(parseRoute(loc("/r/abc", "", "#invite=zz"))).toEqual({ name: "room", roomId: "abc", invite: "zz" });
  });

  it("leaves addresses without one alone", () => {
    expect(inviteOutOfQuery(loc("/r/abc", "", "#invite=zz"))).toBeNull();
    expect(inviteOutOfQuery(loc("/r/abc"))).toBeNull();
    expect(inviteOutOfQuery(loc("/", "?invite=zz", "#/r/abc"))).toBeNull();
  });
});
