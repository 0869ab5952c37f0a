/* examples/t1/lib/splitc.h: Split-C style global accesses on the T1 (note 002 §2.3, §5.7): a put is an
 * LP request whose handler stores the word and acknowledges with an HP reply; a get is an LP request
 * whose handler answers with an HP reply that stores the word where the requester asked. Request
 * handlers spin on their HP replies, which the deadlock rules allow (§3.9). Message events must be
 * unmasked (T1_LPMM | T1_HPMM). */
#ifndef T1_SPLITC_H
#define T1_SPLITC_H

/* *remote := value on `node`; returns at once. */
void t1_put(unsigned node, volatile unsigned* remote, unsigned value);
/* *local := *remote of `node`, when the reply arrives; returns at once. */
void t1_get(unsigned node, volatile unsigned* remote, volatile unsigned* local);
/* Split-C's sync: waits until every put issued so far is acknowledged and every get has returned. */
void t1_sync(void);

#endif
