package io.servesim.policy.api;

/**
 * An admission policy as code ({@code policies.admission: {name: code, params: {source: FILE.java}}}): decides at
 * the cluster's front door whether a request enters (BLIS {@code sim/admission.go}). It sees the request and the
 * clock only; what it needs of the past (tokens, requests in flight per tenant) it keeps in its fields.
 */
public interface AdmissionPolicy {
    /** Admit, reject or delay {@code request} at simulated time {@code nowUs} (microseconds). */
    Admission decide(RequestView request, long nowUs);

    /** An admitted request left the cluster (completed or dropped): a quota releases it. Nothing by default. */
    default void onLeft(RequestView request, long nowUs) {
    }
}
