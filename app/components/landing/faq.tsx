import { ChevronDown, Search } from "lucide-react";
import { useId, useState } from "react";

import { faqTopics, type FaqQuestion } from "~/components/landing/faq-questions";
import { SectionHeading } from "~/components/landing/section-heading";
import { Tabs } from "~/components/ui/tabs";
import { useHydrated } from "~/components/ui/use-hydrated";

function matches(item: FaqQuestion, query: string) {
  const needle = query.toLocaleLowerCase();
  return item.question.toLocaleLowerCase().includes(needle) || item.answer.toLocaleLowerCase().includes(needle);
}

/**
 * Two topics of native <details> accordions. Without JavaScript both topics are listed under their
 * own headings; once hydrated they become tabs, and the search filters both topics at once.
 */
export function Faq() {
  const searchId = useId();
  const hydrated = useHydrated();
  const [query, setQuery] = useState("");
  const trimmed = query.trim();
  const results = faqTopics
    .map((topic) => ({ ...topic, questions: topic.questions.filter((item) => matches(item, trimmed)) }))
    .filter((topic) => topic.questions.length > 0);
  const resultCount = results.reduce((sum, topic) => sum + topic.questions.length, 0);

  return (
    <section id="faq" aria-labelledby="faq-heading" className="render-when-near bg-slate-50 py-20 sm:py-24">
      <div className="mx-auto max-w-3xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="faq-heading" eyebrow="Good to know" title="Frequently asked questions">
          Everything you need to know about getting started and working with us.
        </SectionHeading>

        {hydrated ? (
          <div role="search" className="relative mt-10">
            <label htmlFor={searchId} className="sr-only">
              Search questions
            </label>
            <Search className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-slate-500" />
            <input
              id={searchId}
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder="Search questions"
              autoComplete="off"
              className="block min-h-12 w-full rounded-full border border-slate-300 bg-white pr-5 pl-12 text-base text-slate-900 shadow-xs placeholder:text-slate-500 hover:border-slate-400 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600"
            />
          </div>
        ) : null}
        <p aria-live="polite" className="sr-only">
          {trimmed ? `${resultCount} ${resultCount === 1 ? "question matches" : "questions match"}` : ""}
        </p>

        <div className="mt-8">
          {!hydrated || trimmed ? (
            results.length === 0 ? (
              <p className="rounded-card border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-slate-700">
                No questions match “{trimmed}”.
              </p>
            ) : (
              <div className="space-y-10">
                {results.map((topic) => (
                  <div key={topic.value}>
                    <h3 className="mb-4 text-lg font-semibold text-slate-950">{topic.label}</h3>
                    <QuestionList questions={topic.questions} />
                  </div>
                ))}
              </div>
            )
          ) : (
            <Tabs
              label="Question topics"
              listClassName="mx-auto max-w-sm"
              items={faqTopics.map((topic) => ({
                value: topic.value,
                label: topic.label,
                content: <QuestionList questions={topic.questions} />,
              }))}
            />
          )}
        </div>
      </div>
    </section>
  );
}

function QuestionList({ questions }: { questions: FaqQuestion[] }) {
  return (
    <ul className="space-y-3">
      {questions.map((item) => (
        <li key={item.question}>
          <details className="group rounded-2xl border border-slate-200 bg-white shadow-xs open:shadow-card">
            <summary className="flex min-h-14 list-none items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left font-semibold text-slate-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 [&::-webkit-details-marker]:hidden">
              {item.question}
              <ChevronDown className="size-5 shrink-0 text-slate-600 transition-transform group-open:rotate-180" />
            </summary>
            <p className="px-5 pb-5 leading-relaxed text-slate-700">{item.answer}</p>
          </details>
        </li>
      ))}
    </ul>
  );
}
