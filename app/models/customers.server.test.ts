import { beforeAll, describe, expect, it } from "vitest";

import { createAccount } from "../../tests/support/dashboard-helpers";
import { findCustomer, listCustomers } from "./customers.server";

beforeAll(async () => {
  for (let i = 0; i < 25; i++) await createAccount("user", { name: `Paging Person ${String(i).padStart(2, "0")}`, email: `paging-${i}@pages.test` });
  await createAccount("user", { name: "Under_Score", email: "under_score@odd.test" });
  await createAccount("user", { name: "Percent 100%", email: "percent@odd.test" });
  await createAccount("team", { name: "Paging Staff", email: "paging-staff@pages.test" });
});

describe("the staff's customer list", () => {
  it("searches name and e-mail case-insensitively, only customers, newest first, in pages with a total", async () => {
    const first = await listCustomers({ search: "PAGING", page: 1, limit: 10 });
    expect(first.total).toBe(25);
    expect(first.users).toHaveLength(10);
    expect(first.users.every((u) => u.role === "user")).toBe(true);
    expect(first.users[0].name).toBe("Paging Person 24");
    const third = await listCustomers({ search: "pages.test", page: 3, limit: 10 });
    expect(third.users.map((u) => u.name)).toEqual(["Paging Person 04", "Paging Person 03", "Paging Person 02", "Paging Person 01", "Paging Person 00"]);
    expect((await listCustomers({ search: "paging", page: 9, limit: 10 })).users).toEqual([]);
  });

  it("treats % and _ in a search as text, not wildcards", async () => {
    expect((await listCustomers({ search: "_" })).users.map((u) => u.name)).toEqual(["Under_Score"]);
    expect((await listCustomers({ search: "100%" })).users.map((u) => u.name)).toEqual(["Percent 100%"]);
  });

  it("finds a customer by id, never a staff account or a malformed id", async () => {
    const { users } = await listCustomers({ search: "Under_Score" });
    expect((await findCustomer(users[0].id))?.email).toBe("under_score@odd.test");
    const staff = await createAccount("team");
    expect(await findCustomer(staff.user.id)).toBeNull();
    expect(await findCustomer("1 or 1=1")).toBeNull();
  });
});
