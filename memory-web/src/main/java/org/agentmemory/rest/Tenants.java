package org.agentmemory.rest;

import jakarta.enterprise.context.RequestScoped;
import org.agentmemory.api.conversation.ConversationKey;

/**
 * The caller's tenant. Until authentication exists every request belongs to
 * {@value ConversationKey#DEFAULT_TENANT}; resources ask here so that adding authentication changes one class.
 */
@RequestScoped
public class Tenants {

    /** @return the tenant of the current request */
    public String current() {
        return ConversationKey.DEFAULT_TENANT;
    }
}
