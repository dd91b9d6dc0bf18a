import { eq } from "drizzle-orm";

import { seedCatalogue } from "#db/seed";
import { supportRoomId } from "~/domain/chat";
import { DELETED_NAME, deletedEmail } from "~/domain/own-data";
import { storeMessage } from "~/models/chat-send.server";
import { seedDemo } from "~/models/demo.server";
import { createPost, updatePost } from "~/models/posts.server";
import { startClientOfOne } from "~/models/users.server";
import { database, db, schema } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { hashToken } from "~/utils/tokens.server";

import { ACCOUNTS, DELETED_CUSTOMER_ID, NEWCOMER, PASSWORD, REVIEW } from "./fixtures";

await database.migrate();
await seedCatalogue(db);
await seedDemo();
const passwordHash = await hashPassword(PASSWORD);
for (const account of Object.values(ACCOUNTS)) {
  await db
    .insert(schema.users)
    .values({ email: account.email, name: account.name, role: account.role, passwordHash, welcomedAt: new Date() })
    .onConflictDoNothing();
}
// The chat spec's customer needs a service whose Message tab it can open.
const [chatUser] = await db.select().from(schema.users).where(eq(schema.users.email, ACCOUNTS.chatCustomer.email));
const [chatService] = await db.select().from(schema.services).orderBy(schema.services.sortOrder).limit(1);
const [chatOrder] = await db
  .insert(schema.orders)
  .values({
    email: chatUser!.email,
    name: chatUser!.name,
    userId: chatUser!.id,
    status: "paid",
    totalCents: chatService!.priceCents,
    stripeSessionId: "cs_e2e_chat_seed",
  })
  .onConflictDoNothing()
  .returning();
if (chatOrder) {
  await db
    .insert(schema.purchases)
    .values({ orderId: chatOrder.id, serviceId: chatService!.id, userId: chatUser!.id, amountCents: chatService!.priceCents, status: "in_progress" });
}
// The dashboard spec's customer B has one paid service for staff to report on and complete.
const [caseyUser] = await db.select().from(schema.users).where(eq(schema.users.email, ACCOUNTS.customerB.email));
const [caseyService] = await db.select().from(schema.services).where(eq(schema.services.slug, "content-calendar"));
const [caseyOrder] = await db
  .insert(schema.orders)
  .values({
    email: caseyUser!.email,
    name: caseyUser!.name,
    userId: caseyUser!.id,
    status: "paid",
    totalCents: caseyService!.priceCents,
    stripeSessionId: "cs_e2e_dashboard_seed",
  })
  .onConflictDoNothing()
  .returning();
if (caseyOrder) {
  await db
    .insert(schema.purchases)
    .values({ orderId: caseyOrder.id, serviceId: caseyService!.id, userId: caseyUser!.id, amountCents: caseyService!.priceCents, status: "in_progress" });
}
// The inbox spec's customer (no purchase) has an earlier conversation that staff already answered.
const [inboxUser] = await db.select().from(schema.users).where(eq(schema.users.email, ACCOUNTS.inboxCustomer.email));
const [inboxStaff] = await db.select().from(schema.users).where(eq(schema.users.email, ACCOUNTS.inboxStaff.email));
const inboxRoom = supportRoomId(inboxUser!.id);
await storeMessage({
  roomId: inboxRoom,
  sender: { _id: inboxUser!.id, name: inboxUser!.name, profileImage: null },
  receiverId: null,
  customerId: inboxUser!.id,
  message: "Hello, is anyone there?",
});
await storeMessage({
  roomId: inboxRoom,
  sender: { _id: inboxStaff!.id, name: inboxStaff!.name, profileImage: null },
  receiverId: inboxUser!.id,
  customerId: inboxUser!.id,
  message: "Hi Indy! How can we help?",
});
// The states spec's customer has one paid service, for its Message tab and staff's upload form.
const [statesUser] = await db.select().from(schema.users).where(eq(schema.users.email, ACCOUNTS.statesCustomer.email));
const [statesOrder] = await db
  .insert(schema.orders)
  .values({
    email: statesUser!.email,
    name: statesUser!.name,
    userId: statesUser!.id,
    status: "paid",
    totalCents: chatService!.priceCents,
    stripeSessionId: "cs_e2e_states_seed",
  })
  .onConflictDoNothing()
  .returning();
if (statesOrder) {
  await db
    .insert(schema.purchases)
    .values({ orderId: statesOrder.id, serviceId: chatService!.id, userId: statesUser!.id, amountCents: chatService!.priceCents, status: "in_progress" });
}
// The screens spec's subscriber has an active PRO plan (paid first month), for the plan pages and the test billing page;
// so does the first-steps spec's customer whose renewal fails.
const [pro] = await db.select().from(schema.plans).where(eq(schema.plans.key, "pro"));
for (const [account, seedKey] of [
  [ACCOUNTS.subscriber, "screens"],
  [ACCOUNTS.pastDue, "past_due"],
] as const) {
  const [owner] = await db.select().from(schema.users).where(eq(schema.users.email, account.email));
  const [planOrder] = await db
    .insert(schema.orders)
    .values({
      kind: "subscription",
      email: owner!.email,
      name: owner!.name,
      userId: owner!.id,
      status: "paid",
      totalCents: pro!.priceCents,
      planId: pro!.key,
      stripeSessionId: `cs_e2e_${seedKey}_plan_seed`,
      stripeCustomerId: `cus_test_e2e_${seedKey}_seed`,
      paidAt: new Date(),
    })
    .onConflictDoNothing()
    .returning();
  if (planOrder) {
    await db.insert(schema.subscriptions).values({
      userId: owner!.id,
      orderId: planOrder.id,
      planId: pro!.key,
      status: "active",
      priceCents: pro!.priceCents,
      stripeSubscriptionId: `sub_test_e2e_${seedKey}_seed`,
      stripeCustomerId: `cus_test_e2e_${seedKey}_seed`,
      currentPeriodEnd: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000),
    });
  }
}
// The subscriptions spec's plan (decision 175): a VIP sign-up and one renewal, for staff's plan pages.
const [planCustomer] = await db
  .insert(schema.users)
  .values({ email: "pia-plan@e2e.test", name: "Pia Plan", role: "user", welcomedAt: new Date() })
  .onConflictDoNothing()
  .returning();
if (planCustomer) {
  const [vip] = await db.select().from(schema.plans).where(eq(schema.plans.key, "vip"));
  const paidAt = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
  const [signUp] = await db
    .insert(schema.orders)
    .values({
      kind: "subscription",
      email: planCustomer.email,
      name: planCustomer.name,
      userId: planCustomer.id,
      status: "paid",
      totalCents: vip!.priceCents,
      planId: vip!.key,
      paidAt,
      createdAt: paidAt,
    })
    .returning();
  const [plan] = await db
    .insert(schema.subscriptions)
    .values({
      userId: planCustomer.id,
      orderId: signUp!.id,
      planId: vip!.key,
      status: "active",
      priceCents: vip!.priceCents,
      stripeSubscriptionId: `sub_test_${signUp!.id}`,
      currentPeriodEnd: new Date(Date.now() + 29 * 24 * 60 * 60 * 1000),
    })
    .returning();
  const renewedAt = new Date(Date.now() - 24 * 60 * 60 * 1000);
  await db.insert(schema.orders).values({
    kind: "renewal",
    email: planCustomer.email,
    name: planCustomer.name,
    userId: planCustomer.id,
    status: "paid",
    totalCents: vip!.priceCents,
    planId: vip!.key,
    subscriptionId: plan!.id,
    paidAt: renewedAt,
    createdAt: renewedAt,
  });
}
// The workspace spec's staff member has two purchases of Wren Work assigned: one overdue, one due in three days.
const [workStaff] = await db.select().from(schema.users).where(eq(schema.users.email, ACCOUNTS.workStaff.email));
const [workUser] = await db.select().from(schema.users).where(eq(schema.users.email, ACCOUNTS.workCustomer.email));
const workServices = await db.select().from(schema.services).orderBy(schema.services.sortOrder).limit(2);
const [workOrder] = await db
  .insert(schema.orders)
  .values({
    email: workUser!.email,
    name: workUser!.name,
    userId: workUser!.id,
    status: "paid",
    totalCents: workServices[0]!.priceCents + workServices[1]!.priceCents,
    stripeSessionId: "cs_e2e_work_seed",
  })
  .onConflictDoNothing()
  .returning();
if (workOrder) {
  const day = 24 * 60 * 60 * 1000;
  await db.insert(schema.purchases).values([
    {
      orderId: workOrder.id,
      serviceId: workServices[1]!.id,
      userId: workUser!.id,
      amountCents: workServices[1]!.priceCents,
      status: "in_progress",
      assigneeId: workStaff!.id,
      dueAt: new Date(Date.now() + 3 * day),
    },
    {
      orderId: workOrder.id,
      serviceId: workServices[0]!.id,
      userId: workUser!.id,
      amountCents: workServices[0]!.priceCents,
      status: "in_progress",
      assigneeId: workStaff!.id,
      dueAt: new Date(Date.now() - day),
    },
  ]);
}
// The workspace spec's inbox: Wren Work's conversation with an internal note between two messages, a
// saved reply, and a grader result left with Wren's address.
if (workOrder) {
  const workRoom = supportRoomId(workUser!.id);
  await storeMessage({
    roomId: workRoom,
    sender: { _id: workUser!.id, name: workUser!.name, profileImage: null },
    receiverId: null,
    customerId: workUser!.id,
    message: "When will the logo be ready?",
  });
  await db.insert(schema.threadNotes).values({ customerId: workUser!.id, authorId: workStaff!.id, body: "Seeded note: prefers calls in the morning." });
  await storeMessage({
    roomId: workRoom,
    sender: { _id: workStaff!.id, name: workStaff!.name, profileImage: null },
    receiverId: workUser!.id,
    customerId: workUser!.id,
    message: "Friday at the latest.",
  });
  await db.insert(schema.savedReplies).values({ title: "Thanks for waiting", body: "Thank you for your patience!", createdBy: workStaff!.id });
  const [grade] = await db
    .insert(schema.grades)
    .values({ answers: {} as never, score: 72, overall: "B", areas: [], recommendations: [] })
    .returning();
  await db.insert(schema.leads).values({ gradeId: grade!.id, email: workUser!.email, name: workUser!.name });
}
// The calendar spec's customers each have an approved post, so that staff's "Draft a post" form lists them.
for (const account of [ACCOUNTS.calendarCustomer, ACCOUNTS.calendarNoJs]) {
  const [customer] = await db.select().from(schema.users).where(eq(schema.users.email, account.email));
  const [existing] = await db.select().from(schema.posts).where(eq(schema.posts.customerId, customer!.id)).limit(1);
  if (!existing) {
    await db.insert(schema.posts).values({
      customerId: customer!.id,
      channel: "linkedin",
      scheduledAt: new Date(Date.now() - 86_400_000),
      caption: "Seeded approved post",
      status: "approved",
    });
  }
}
// The screens spec's newcomer has no password yet and an unused set-password link (as after a first order).
const [newcomer] = await db.insert(schema.users).values({ email: NEWCOMER.email, name: NEWCOMER.name, role: "user" }).onConflictDoNothing().returning();
if (newcomer) {
  await db
    .insert(schema.passwordTokens)
    .values({ tokenHash: hashToken(NEWCOMER.setPasswordToken), purpose: "set", userId: newcomer.id, expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000) });
}
// The briefs spec: its own service (inactive: not on the storefront), bought by each of its buyers,
// each purchase with an unanswered brief, as if the questions had been set before the payment.
const [briefService] = await db
  .insert(schema.services)
  .values({ slug: "e2e-brief-lab", name: "Brief Lab", priceCents: 5000, active: false, sortOrder: 900 })
  .onConflictDoNothing()
  .returning();
if (briefService) {
  const questions = [
    { key: "brand", label: "Brand name", kind: "text" as const, required: true },
    { key: "tone", label: "Tone of voice", kind: "choice" as const, required: false, options: ["Playful", "Serious"] },
    { key: "site", label: "Website", kind: "url" as const, required: false },
  ];
  for (const account of [ACCOUNTS.briefCustomer, ACCOUNTS.briefFormJs, ACCOUNTS.briefFormNoJs]) {
    const [buyer] = await db.select().from(schema.users).where(eq(schema.users.email, account.email));
    const [order] = await db
      .insert(schema.orders)
      .values({
        email: buyer!.email,
        name: buyer!.name,
        userId: buyer!.id,
        status: "paid",
        totalCents: 5000,
        paidAt: new Date(),
        stripeSessionId: `cs_e2e_brief_${buyer!.id}`,
      })
      .returning();
    const [purchase] = await db
      .insert(schema.purchases)
      .values({ orderId: order!.id, serviceId: briefService.id, userId: buyer!.id, amountCents: 5000, status: "in_progress" })
      .returning();
    await db.insert(schema.briefs).values({ purchaseId: purchase!.id, userId: buyer!.id, questions, paidAt: new Date() });
  }
}

// The delivery story's plan asks one question after payment (the briefs spec edits its own service).
const [vip] = await db.select().from(schema.plans).where(eq(schema.plans.key, "vip"));
await db
  .insert(schema.briefForms)
  .values({
    subject: "plan",
    subjectId: vip!.id,
    questions: [{ key: "celebrate", label: "What should your first posts celebrate?", kind: "text", required: true }],
  })
  .onConflictDoNothing();

// A customer who deleted their account, with paid work still open (decision 280): their row and
// books stay, under the deleted account's name and address.
const [gone] = await db
  .insert(schema.users)
  .values({ id: DELETED_CUSTOMER_ID, email: "gone@e2e.test", name: "Gale Gone", role: "user", passwordHash })
  .onConflictDoNothing()
  .returning();
if (gone) {
  const [goneService] = await db.select().from(schema.services).orderBy(schema.services.sortOrder).limit(1);
  const [goneOrder] = await db
    .insert(schema.orders)
    .values({
      email: deletedEmail(gone.id),
      name: DELETED_NAME,
      userId: gone.id,
      status: "paid",
      totalCents: goneService!.priceCents,
      stripeSessionId: "cs_e2e_deleted_seed",
    })
    .returning();
  await db
    .insert(schema.purchases)
    .values({ orderId: goneOrder!.id, serviceId: goneService!.id, userId: gone.id, amountCents: goneService!.priceCents, status: "in_progress" });
  await db
    .update(schema.users)
    .set({ name: DELETED_NAME, email: deletedEmail(gone.id), passwordHash: null, disabledAt: new Date() })
    .where(eq(schema.users.id, gone.id));
}

// The review-link story: staff sent posts for review to a client with an approver, and two to a
// client of one, through the same model calls as the post page's "Send for review".
const [reviewStaff] = await db.select().from(schema.users).where(eq(schema.users.email, ACCOUNTS.reviewStaff.email));
const [harbour] = await db
  .insert(schema.users)
  .values({ email: REVIEW.client.email, name: REVIEW.client.name, role: "user", passwordHash, welcomedAt: new Date() })
  .onConflictDoNothing()
  .returning();
if (harbour) {
  const staff = { id: reviewStaff!.id, role: "team" as const };
  const [approver] = await db.select().from(schema.users).where(eq(schema.users.email, ACCOUNTS.reviewApprover.email));
  const [owner] = await db.select().from(schema.users).where(eq(schema.users.email, ACCOUNTS.reviewOwner.email));
  await startClientOfOne(db, harbour);
  await startClientOfOne(db, owner!);
  await db.insert(schema.clientMembers).values({ userId: approver!.id, clientId: harbour.id, role: "approver", invitedBy: harbour.id, joinedAt: new Date() });
  // Ten days ahead: the review deadline (48 hours before) is days away, so no reminder joins the notices.
  const scheduledAt = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000).toISOString();
  for (const [customerId, channel, caption] of [
    [harbour.id, "instagram", REVIEW.approve],
    [owner!.id, "facebook", REVIEW.changes.js],
    [owner!.id, "facebook", REVIEW.changes["no-js"]],
  ] as const) {
    const post = await createPost(staff, { customerId, channel, scheduledAt, caption });
    await updatePost(staff, post.id, { status: "in_review" });
  }
}

await database.close();
// A script, done: connections the app opened on the way (Redis for live events) must not keep it alive.
process.exit(0);
