import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { ShoppingBag } from "lucide-react";

import { AreaChart } from "~/components/grader/area-chart";
import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/landing/site-header";
import { OrderModal } from "~/components/order/order-modal";
import { buttonClassName } from "~/components/ui/button";
import { useHydrated } from "~/components/ui/use-hydrated";
import { formatCents } from "~/domain/format";
import { isUuid } from "~/domain/ids";
import { ORDER_INTENT } from "~/domain/order-intents";
import { findGrade, gradeView } from "~/models/grades.server";
import { gradeContactFor } from "~/routes/grade/grade-contact.server";
import { env } from "~/utils/env.server";
import { getOptionalUser } from "~/web/auth.server";

/**
 * /grade/:id, the report card: the letter and score, a chart of the areas (SVG from the server),
 * the advice, and the services that fix the weakest areas, ordered in one step (the order modal
 * opens with them ticked; `?order=1` keeps it open without JavaScript). Only the id gives access,
 * and the page shows no personal data.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const grade = isUuid(params.id) ? await findGrade(params.id!) : null;
  if (!grade) throw new Response("Grade not found", { status: 404 });
  const [user, contact] = await Promise.all([getOptionalUser(request), gradeContactFor(request, grade.id)]);
  return data(
    {
      contact,
      grade: await gradeView(grade),
      url: `${env.appUrl}/grade/${grade.id}`,
      user: user ? { name: user.name, email: user.email } : null,
    },
    // The grader's own visitor sees what they typed: that page is theirs alone.
    contact ? { headers: { "Cache-Control": "private, no-store" } } : undefined,
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function GradeReport() {
  const { grade, user, contact } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const orderOpen = searchParams.get("order") === "1" && grade.recommendations.length > 0;
  const services = grade.recommendations.map((r) => r.service);
  const chartTitle = `Scores by area: ${grade.areas.map((a) => `${a.label} ${a.score}`).join(", ")}`;
  return (
    <>
      <SiteHeader user={user} />
      <main id="main" className="bg-slate-50">
        <div className="mx-auto max-w-4xl space-y-8 px-4 py-10 sm:px-6 sm:py-14">
          <section
            aria-labelledby="grade-heading"
            className="flex flex-wrap items-center gap-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
          >
            <p className="flex size-24 shrink-0 items-center justify-center rounded-2xl bg-brand-950 text-6xl font-extrabold text-white" aria-hidden="true">
              {grade.overall}
            </p>
            <div>
              <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase">Your social media grade</p>
              <h1 id="grade-heading" className="mt-1 text-3xl font-extrabold">
                {grade.overall}: {grade.score}/100
              </h1>
              <p className="mt-2 text-slate-700">Graded on {new Date(grade.createdAt).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" })}.</p>
            </div>
          </section>

          <section aria-labelledby="areas-heading" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
            <h2 id="areas-heading" className="text-xl font-bold">
              Score by area
            </h2>
            <div className="mt-4">
              {/* Phones get the compact drawing (readable text), wider screens the full one; only one is ever shown. */}
              <AreaChart areas={grade.areas} title={chartTitle} compact className="sm:hidden" />
              <AreaChart areas={grade.areas} title={chartTitle} className="max-sm:hidden" />
            </div>
            <ul className="mt-6 space-y-4">
              {grade.areas.map((area) => (
                <li key={area.key}>
                  <h3 className="font-semibold text-slate-950">
                    {area.label}: {area.grade} ({area.score}/100)
                  </h3>
                  <p className="text-slate-700">{area.advice}</p>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="fix-heading" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
            <h2 id="fix-heading" className="text-xl font-bold">
              {grade.recommendations.length ? "What we would fix first" : "Nothing urgent to fix"}
            </h2>
            {grade.recommendations.length ? (
              <>
                <ul className="mt-4 space-y-4">
                  {grade.recommendations.map((r) => (
                    <li key={r.service.id} className="rounded-xl border border-slate-200 p-4">
                      <p className="font-semibold text-slate-950">
                        {r.service.name} · {formatCents(r.service.priceCents, r.service.currency)}
                      </p>
                      <p className="mt-1 text-sm text-slate-700">{r.reason}</p>
                    </li>
                  ))}
                </ul>
                <Link to="?order=1" preventScrollReset className={buttonClassName({ size: "lg", className: "mt-6" })}>
                  <ShoppingBag aria-hidden="true" className="size-5" />
                  Order {services.length === 1 ? "this service" : `these ${services.length} services`}
                </Link>
              </>
            ) : (
              <p className="mt-2 text-slate-700">Your page is in great shape. Want to keep it that way? Our monthly plans run it for you.</p>
            )}
            <p className="mt-6 text-sm">
              <Link to="/grade" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                Grade another page
              </Link>
            </p>
          </section>
        </div>
      </main>
      <SiteFooter />
      <OrderModal
        open={orderOpen}
        onClose={() => navigate(".", { replace: true, preventScrollReset: true })}
        title="Order the recommended services"
        lines={[]}
        choices={services.map((s) => ({ id: s.id, name: s.name, amountCents: s.priceCents }))}
        hidden={{ intent: ORDER_INTENT }}
        defaultValues={{ name: user?.name ?? contact?.name, email: user?.email ?? contact?.email }}
        hydrated={hydrated}
        backHref={`/grade/${grade.id}`}
      />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "Grade not found | BrandLift" }];
  const title = `Social media grade ${data.grade.overall} (${data.grade.score}/100) | BrandLift`;
  const description = `Engagement, consistency, profile, visuals, video and responsiveness: ${data.grade.areas.map((a) => `${a.label} ${a.grade}`).join(", ")}.`;
  return [
    { title },
    { name: "description", content: description },
    { name: "robots", content: "noindex" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: data.url },
    { property: "og:image", content: `${data.url}/og.png` },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { name: "twitter:card", content: "summary_large_image" },
  ];
};
