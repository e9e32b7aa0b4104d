; The briefcase world: planners/data/problems/briefcase.yaml written by hand in PDDL (ADL with
; action costs).  Optimal cost of task01: 10.
(define (domain briefcase)
  (:requirements :adl :derived-predicates :action-costs)
  (:types place item)
  (:predicates (at ?p - place) (item-at ?i - item ?p - place) (in ?i - item)
               (wanted ?i - item ?p - place) (empty) (delivered ?i - item))
  (:functions (total-cost) - number)
  (:derived (empty) (not (exists (?i - item) (in ?i))))
  (:derived (delivered ?i - item)
    (forall (?p - place) (imply (wanted ?i ?p) (item-at ?i ?p))))
  (:action move
    :parameters (?from ?to - place)
    :precondition (and (at ?from) (not (= ?from ?to)))
    :effect (and (at ?to) (not (at ?from))
                 (forall (?i - item) (when (in ?i) (and (item-at ?i ?to) (not (item-at ?i ?from)))))
                 (increase (total-cost) 3)))
  (:action putin
    :parameters (?i - item ?p - place)
    :precondition (and (at ?p) (item-at ?i ?p) (not (in ?i)))
    :effect (and (in ?i) (increase (total-cost) 1)))
  (:action takeout
    :parameters (?i - item)
    :precondition (in ?i)
    :effect (and (not (in ?i)) (increase (total-cost) 1))))
