import { eq, inArray, sql } from "drizzle-orm";

import { supportRoomId } from "~/domain/chat";
import { db, schema } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { putBuffer } from "~/utils/storage.server";

/** Demo accounts for the embedded database only, so a newcomer can explore every screen. */
export const DEMO_PASSWORD = "brandlift-demo";
export const DEMO_TEAM = { email: "team@brandlift.test", name: "Taylor Brooks", role: "team" as const };
export const DEMO_CUSTOMER = { email: "customer@brandlift.test", name: "Jordan Avery", role: "user" as const };

const DEMO_PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n" +
    "4 0 obj<</Length 58>>stream\nBT /F1 24 Tf 72 700 Td (BrandLift Social Media Audit) Tj ET\nendstream endobj\n" +
    "5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

export async function seedDemo() {
  const existing = await db
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(inArray(sql`lower(${schema.users.email})`, [DEMO_TEAM.email, DEMO_CUSTOMER.email]));
  if (existing.length > 0) return [DEMO_TEAM, DEMO_CUSTOMER];
  const [{ value: userCount }] = await db.select({ value: sql<number>`count(*)::int` }).from(schema.users);
  if (userCount > 0) return null;

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const catalogue = await db.select().from(schema.services).orderBy(schema.services.sortOrder).limit(3);
  const reportKey = `reports/demo/${crypto.randomUUID()}.pdf`;
  await putBuffer(reportKey, DEMO_PDF, "application/pdf");

  await db.transaction(async (tx) => {
    const [team] = await tx
      .insert(schema.users)
      .values({ ...DEMO_TEAM, passwordHash })
      .returning();
    const [customer] = await tx
      .insert(schema.users)
      .values({ ...DEMO_CUSTOMER, passwordHash })
      .returning();
    const total = catalogue.reduce((sum, s) => sum + s.priceCents, 0);
    const paidAt = new Date(Date.now() - 9 * 24 * 3600_000);
    const [order] = await tx
      .insert(schema.orders)
      .values({
        email: customer.email,
        name: customer.name,
        userId: customer.id,
        status: "paid",
        totalCents: total,
        paidAt,
        createdAt: paidAt,
        stripeSessionId: "cs_demo_seed",
      })
      .returning();
    const purchases = await tx
      .insert(schema.purchases)
      .values(
        catalogue.map((service, i) => ({
          orderId: order.id,
          serviceId: service.id,
          userId: customer.id,
          amountCents: service.priceCents,
          status: i === 0 ? ("completed" as const) : ("in_progress" as const),
          completedAt: i === 0 ? new Date() : null,
          createdAt: paidAt,
        })),
      )
      .returning();
    await tx.insert(schema.reports).values({
      userId: customer.id,
      serviceId: purchases[0].serviceId,
      purchaseId: purchases[0].id,
      uploadedById: team.id,
      title: "Audit findings and 90-day plan",
      description: "Your profile scores, competitor benchmark and the ten changes we recommend first.",
      fileName: "social-media-audit.pdf",
      fileSize: DEMO_PDF.length,
      mimeType: "application/pdf",
      storageKey: reportKey,
    });
    const roomId = supportRoomId(customer.id);
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    await tx.insert(schema.chatMessages).values([
      {
        roomId,
        customerId: customer.id,
        senderId: customer.id,
        message: "Hi! Is there an update on the content calendar?",
        serviceId: purchases[1].serviceId,
        createdAt: minutesAgo(90),
      },
      {
        roomId,
        customerId: customer.id,
        senderId: team.id,
        receiverId: customer.id,
        message: "Hi Jordan, the first two weeks are drafted. You will have the full calendar by Friday.",
        createdAt: minutesAgo(80),
      },
      { roomId, customerId: customer.id, senderId: customer.id, message: "Perfect, thank you!", createdAt: minutesAgo(75) },
    ]);
    await tx.update(schema.orders).set({ userId: customer.id }).where(eq(schema.orders.id, order.id));
  });
  return [DEMO_TEAM, DEMO_CUSTOMER];
}
