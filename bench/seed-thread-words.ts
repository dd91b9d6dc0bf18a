import type postgres from "postgres";

import { THREAD_WORDS_PER_PAGE } from "../app/domain/inbox";

/**
 * The threads' pages of words for messages loaded in bulk, page by page as the messages' own
 * statements write them (docs/decisions/337): each message's words go onto its thread's newest page,
 * and a message that brings a word the newest page lacks opens the next page once that one is full.
 */
export async function seedThreadWords(sql: postgres.Sql) {
  await sql.unsafe(`do $$
    declare
      r record;
      thread uuid;
      doc tsvector;
      page int;
      said tsvector;
    begin
      for r in select t.id as thread_id, m.message from chat_messages m join chat_threads t on t.room_id = m.room_id order by t.id, m.created_at, m.id loop
        if thread is distinct from r.thread_id then
          if length(doc) > 0 then insert into chat_thread_words (thread_id, page, document) values (thread, page, doc); end if;
          thread := r.thread_id;
          doc := ''::tsvector;
          page := 0;
        end if;
        said := strip(to_tsvector('simple', r.message));
        if length(doc) >= ${THREAD_WORDS_PER_PAGE} and not tsvector_to_array(said) <@ tsvector_to_array(doc) then
          insert into chat_thread_words (thread_id, page, document) values (thread, page, doc);
          page := page + 1;
          doc := ''::tsvector;
        end if;
        doc := doc || said;
      end loop;
      if length(doc) > 0 then insert into chat_thread_words (thread_id, page, document) values (thread, page, doc); end if;
    end $$`);
}
