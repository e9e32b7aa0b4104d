; A small transport domain whose predicates and parameters use `either` types:
; packages and trucks are both "at" a place, a package is "in" a truck or a plane.
(define (domain either-transport)
  (:requirements :strips :typing)
  (:types truck plane - vehicle package place)
  (:predicates (at ?x - (either package vehicle) ?p - place)
               (in ?x - package ?v - (either truck plane))
               (road ?a ?b - place) (airport ?p - place))
  (:action drive
    :parameters (?t - truck ?a ?b - place)
    :precondition (and (at ?t ?a) (road ?a ?b))
    :effect (and (at ?t ?b) (not (at ?t ?a))))
  (:action fly
    :parameters (?v - plane ?a ?b - place)
    :precondition (and (at ?v ?a) (airport ?a) (airport ?b))
    :effect (and (at ?v ?b) (not (at ?v ?a))))
  (:action load
    :parameters (?x - package ?v - (either truck plane) ?p - place)
    :precondition (and (at ?x ?p) (at ?v ?p))
    :effect (and (in ?x ?v) (not (at ?x ?p))))
  (:action unload
    :parameters (?x - package ?v - (either truck plane) ?p - place)
    :precondition (and (in ?x ?v) (at ?v ?p))
    :effect (and (at ?x ?p) (not (in ?x ?v)))))
