package org.agentmemory.omission.boundary;

import jakarta.persistence.EntityManager;

/** The product's {@link OmissionStoreBean} wired as the container wires it, outside a container. */
public final class OmissionStores {

    private OmissionStores() {}

    /**
     * @param em the entity manager of the caller's transaction
     * @return the bean
     */
    public static OmissionStoreBean of(EntityManager em) {
        OmissionStoreBean bean = new OmissionStoreBean();
        bean.em = em;
        return bean;
    }
}
