/**
 * Skills' and the router's logic without container types (issue 35 items 2 and 3): the input rules of a skill, the
 * texts a skill is embedded and shown by (spec §9.2 skills section), the extraction of skills from clusters of
 * successful episodes (spec §9.4 {@code skill_auto_extract}) with its model prompt and answer, and the cross-domain
 * routing of spec §9.5 with the decay applied (spec §13 #11).
 */
@Pure
package org.agentmemory.skills.control;

import org.agentmemory.platform.Pure;
