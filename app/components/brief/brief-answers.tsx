import type { BriefAnswers, BriefQuestion } from "~/domain/brief";
import { attachmentPath } from "~/domain/chat";
import { formatFileSize } from "~/domain/format";
import { formatDate } from "~/domain/purchase";

/*
 * A brief as staff read it (the purchase, the plan, the inbox's customer pane) and as its owner
 * sees what they sent: each question and its answer; a file answer links to the file at its chat
 * address, which lets the thread's members (the customer and the team) open it.
 */

export interface BriefFileView {
  id: string;
  fileName: string;
  mimeType: string;
  fileSize: number;
}

export interface BriefAnswersView {
  questions: BriefQuestion[];
  answers: BriefAnswers;
  submittedAt: string | null;
}

const list = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

export function BriefAnswerList({ brief, files, compact = false }: { brief: BriefAnswersView; files: Record<string, BriefFileView>; compact?: boolean }) {
  return (
    <dl className={compact ? "space-y-2 text-sm" : "space-y-4"}>
      {brief.questions.map((question) => {
        const answer = list(brief.answers[question.key]);
        return (
          <div key={question.key}>
            <dt className="font-semibold text-slate-800">{question.label}</dt>
            <dd className="mt-0.5 break-words whitespace-pre-line text-slate-700">
              {answer.length === 0 ? (
                <span className="text-slate-600 italic">Not answered</span>
              ) : question.kind === "file" ? (
                <ul className="space-y-1">
                  {answer.map((id) => (
                    <li key={id}>
                      <a href={attachmentPath(id)} className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
                        {files[id]?.fileName ?? "File"}
                      </a>
                      {files[id] ? <span className="text-slate-600"> ({formatFileSize(files[id].fileSize)})</span> : null}
                    </li>
                  ))}
                </ul>
              ) : question.kind === "url" ? (
                <a href={answer[0]} rel="noopener noreferrer nofollow" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
                  {answer[0]}
                </a>
              ) : (
                answer[0]
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** "Sent 3 Nov 2026" or "Not sent yet", for a brief's heading. */
export const briefSentLine = (submittedAt: string | null) => (submittedAt ? `Sent ${formatDate(submittedAt)}` : "Not sent yet");
