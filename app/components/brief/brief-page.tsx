import { BriefAnswerList, briefSentLine, type BriefAnswersView, type BriefFileView } from "~/components/brief/brief-answers";
import { BriefForm, type BriefFormReply } from "~/components/brief/brief-form";
import { BackLink } from "~/components/dashboard/back-link";
import { Badge } from "~/components/ui/badge";

/** The brief page of a purchase or a plan (routes dashboard.services_.$purchaseId.brief and dashboard.plans_.$subscriptionId.brief). */
export interface BriefPageData {
  title: string;
  hasBrief: boolean;
  version: string;
  brief: BriefAnswersView;
  files: Record<string, BriefFileView>;
  canAnswer: boolean;
  back: { to: string; label: string };
}

export function BriefPage({ data, reply }: { data: BriefPageData; reply?: BriefFormReply }) {
  const { brief } = data;
  return (
    <section aria-labelledby="brief-heading" className="space-y-6">
      <BackLink to={data.back.to}>{data.back.label}</BackLink>
      <div className="rounded-card border border-slate-200 bg-white p-6 shadow-card">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id="brief-heading" className="text-2xl font-bold text-slate-950">
              Brief for {data.title}
            </h2>
            <p className="mt-1 text-slate-600">
              {!data.hasBrief
                ? "This order has no brief to fill in."
                : data.canAnswer
                  ? brief.submittedAt
                    ? `${briefSentLine(brief.submittedAt)}. You can correct your answers at any time.`
                    : "Tell us about your project so we can start. It takes a few minutes."
                  : briefSentLine(brief.submittedAt)}
            </p>
          </div>
          {data.hasBrief ? brief.submittedAt ? <Badge tone="success">Brief sent</Badge> : <Badge tone="warning">Brief needed</Badge> : null}
        </div>
        {data.hasBrief ? (
          <div className="mt-6">
            {data.canAnswer ? (
              <BriefForm key={data.version} brief={brief} files={data.files} reply={reply} />
            ) : (
              <BriefAnswerList brief={brief} files={data.files} />
            )}
          </div>
        ) : null}
      </div>
    </section>
  );
}
